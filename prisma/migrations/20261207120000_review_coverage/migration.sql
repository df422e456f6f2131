-- Independence: the user ids in the source systems that are this person
-- (a reviewer never sees or decides a row whose User ID is one of them).
-- Each existing user starts with the local part of their e-mail, as new users do.
ALTER TABLE "users" ADD COLUMN "access_user_ids" TEXT[] DEFAULT ARRAY[]::TEXT[];
UPDATE "users" SET "access_user_ids" = ARRAY[split_part("email", '@', 1)] WHERE split_part("email", '@', 1) <> '';
-- Independence: a new user is, in the source systems, the local part of their
-- e-mail unless their access user ids are given (administrators edit them).
CREATE OR REPLACE FUNCTION "users_default_access_user_ids"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(NEW."access_user_ids") = 0 AND split_part(NEW."email", '@', 1) <> '' THEN
    NEW."access_user_ids" := ARRAY[split_part(NEW."email", '@', 1)];
  END IF;
  RETURN NEW;
END $$;

DROP TRIGGER IF EXISTS "users_default_access_user_ids" ON "users";
CREATE TRIGGER "users_default_access_user_ids" BEFORE INSERT ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_default_access_user_ids"();
