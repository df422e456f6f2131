-- An extract's rows are loaded by COPY, millions at a time, and the foreign key
-- to access_extracts checked every one of them: on 800,000 AGR_1251 rows the
-- check took longer than the COPY and the primary key together. The loader
-- deletes an extract's rows itself (removeRows), as the upload loader does for
-- risk_rows.
ALTER TABLE "access_x_usr02" DROP CONSTRAINT "access_x_usr02_extract_id_fkey";
ALTER TABLE "access_x_user_addr" DROP CONSTRAINT "access_x_user_addr_extract_id_fkey";
ALTER TABLE "access_x_agr_users" DROP CONSTRAINT "access_x_agr_users_extract_id_fkey";
ALTER TABLE "access_x_agr_agrs" DROP CONSTRAINT "access_x_agr_agrs_extract_id_fkey";
ALTER TABLE "access_x_agr_1251" DROP CONSTRAINT "access_x_agr_1251_extract_id_fkey";
ALTER TABLE "access_x_agr_texts" DROP CONSTRAINT "access_x_agr_texts_extract_id_fkey";
ALTER TABLE "access_x_usage" DROP CONSTRAINT "access_x_usage_extract_id_fkey";
