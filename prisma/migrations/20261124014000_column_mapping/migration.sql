-- Preview before load and column-mapping profiles (issue 14, points 5 and 6):
-- the mapping an administrator confirmed in the preview (source header ->
-- field, or none for a column left out) is kept with the upload, so its load
-- and a retry use it; a saved mapping (per source system or file layout) is
-- applied to later files that have all of its columns.
ALTER TABLE "uploads" ADD COLUMN "column_overrides" JSONB;

CREATE TABLE "mapping_profiles" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "columns" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mapping_profiles_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "mapping_profiles_name_key" ON "mapping_profiles"("name");
