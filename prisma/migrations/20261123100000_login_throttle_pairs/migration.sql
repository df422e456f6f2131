-- Sign-in throttling per account and address instead of per account: the
-- account-wide rows ('email:…') that locked an account for everyone go, and
-- the per-account counter remembers when it last alerted the administrators.
DELETE FROM "login_throttle" WHERE "key" LIKE 'email:%';
ALTER TABLE "login_throttle" ADD COLUMN "notified_at" TIMESTAMPTZ(3);
