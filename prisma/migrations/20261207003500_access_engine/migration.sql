-- The access risk analysis engine: rule sets (versioned by name), the SAP
-- tables of each system's access extract, and analysis runs with their
-- conflicts and rows. Values the analysis compares (actions, authorization
-- values, requirement values) are COLLATE "C": SAP orders by code point, so
-- 'F-53' < 'F0' whatever the database's locale.

CREATE TABLE "access_rule_sets" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT false,
    "uploaded_by" TEXT,
    "uploaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "risks" INTEGER NOT NULL DEFAULT 0,
    "functions" INTEGER NOT NULL DEFAULT 0,
    "actions" INTEGER NOT NULL DEFAULT 0,
    "permissions" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "access_rule_sets_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "access_rule_sets_name_version_key" ON "access_rule_sets"("name", "version");

CREATE TABLE "access_business_processes" (
    "rule_set_id" UUID NOT NULL,
    "process" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "access_business_processes_pkey" PRIMARY KEY ("rule_set_id", "process"),
    CONSTRAINT "access_business_processes_rule_set_id_fkey" FOREIGN KEY ("rule_set_id") REFERENCES "access_rule_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_risks" (
    "rule_set_id" UUID NOT NULL,
    "risk_id" TEXT COLLATE "C" NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "level" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "business_process" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL,
    "line" INTEGER NOT NULL,
    CONSTRAINT "access_risks_pkey" PRIMARY KEY ("rule_set_id", "risk_id"),
    CONSTRAINT "access_risks_level_check" CHECK ("level" IN ('Critical', 'High', 'Medium', 'Low')),
    CONSTRAINT "access_risks_type_check" CHECK ("type" IN ('S', 'A', 'P')),
    CONSTRAINT "access_risks_rule_set_id_fkey" FOREIGN KEY ("rule_set_id") REFERENCES "access_rule_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_functions" (
    "rule_set_id" UUID NOT NULL,
    "function_id" TEXT COLLATE "C" NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "business_process" TEXT NOT NULL DEFAULT '',
    "scope" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    CONSTRAINT "access_functions_pkey" PRIMARY KEY ("rule_set_id", "function_id"),
    CONSTRAINT "access_functions_scope_check" CHECK ("scope" IN ('Single', 'Cross')),
    CONSTRAINT "access_functions_rule_set_id_fkey" FOREIGN KEY ("rule_set_id") REFERENCES "access_rule_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_risk_functions" (
    "rule_set_id" UUID NOT NULL,
    "risk_id" TEXT COLLATE "C" NOT NULL,
    "function_id" TEXT COLLATE "C" NOT NULL,
    "line" INTEGER NOT NULL,
    CONSTRAINT "access_risk_functions_pkey" PRIMARY KEY ("rule_set_id", "risk_id", "function_id"),
    CONSTRAINT "access_risk_functions_rule_set_id_fkey" FOREIGN KEY ("rule_set_id") REFERENCES "access_rule_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- System '' stands for every system.
CREATE TABLE "access_function_actions" (
    "rule_set_id" UUID NOT NULL,
    "function_id" TEXT COLLATE "C" NOT NULL,
    "system" TEXT COLLATE "C" NOT NULL,
    "action" TEXT COLLATE "C" NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL,
    "line" INTEGER NOT NULL,
    CONSTRAINT "access_function_actions_pkey" PRIMARY KEY ("rule_set_id", "function_id", "system", "action"),
    CONSTRAINT "access_function_actions_rule_set_id_fkey" FOREIGN KEY ("rule_set_id") REFERENCES "access_rule_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_function_permissions" (
    "rule_set_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "function_id" TEXT COLLATE "C" NOT NULL,
    "system" TEXT COLLATE "C" NOT NULL,
    "action" TEXT COLLATE "C" NOT NULL,
    "object" TEXT COLLATE "C" NOT NULL,
    "field" TEXT COLLATE "C" NOT NULL,
    "value_from" TEXT COLLATE "C" NOT NULL,
    "value_to" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL,
    CONSTRAINT "access_function_permissions_pkey" PRIMARY KEY ("rule_set_id", "line"),
    CONSTRAINT "access_function_permissions_rule_set_id_fkey" FOREIGN KEY ("rule_set_id") REFERENCES "access_rule_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_extracts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "system" TEXT COLLATE "C" NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'processing',
    "error_message" TEXT,
    "file_name" TEXT NOT NULL,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "users" INTEGER NOT NULL DEFAULT 0,
    "roles" INTEGER NOT NULL DEFAULT 0,
    "assignments" INTEGER NOT NULL DEFAULT 0,
    "authorizations" INTEGER NOT NULL DEFAULT 0,
    "loaded_by" TEXT,
    "loaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "superseded_at" TIMESTAMPTZ(3),
    CONSTRAINT "access_extracts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "access_extracts_status_check" CHECK ("status" IN ('processing', 'completed', 'failed'))
);
CREATE INDEX "access_extracts_system_status_idx" ON "access_extracts"("system", "status");

-- The SAP tables of an extract, one row per line of its file (the header is line 1).
-- Dates: NULL is unlimited (00000000 or empty in the file).
CREATE TABLE "access_x_usr02" (
    "extract_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "bname" TEXT COLLATE "C" NOT NULL,
    "class" TEXT NOT NULL DEFAULT '',
    "ustyp" TEXT NOT NULL DEFAULT '',
    "uflag" INTEGER NOT NULL DEFAULT 0,
    "gltgv" DATE,
    "gltgb" DATE,
    CONSTRAINT "access_x_usr02_pkey" PRIMARY KEY ("extract_id", "line"),
    CONSTRAINT "access_x_usr02_extract_id_fkey" FOREIGN KEY ("extract_id") REFERENCES "access_extracts"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_x_user_addr" (
    "extract_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "bname" TEXT COLLATE "C" NOT NULL,
    "name_first" TEXT NOT NULL DEFAULT '',
    "name_last" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "access_x_user_addr_pkey" PRIMARY KEY ("extract_id", "line"),
    CONSTRAINT "access_x_user_addr_extract_id_fkey" FOREIGN KEY ("extract_id") REFERENCES "access_extracts"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_x_agr_users" (
    "extract_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "agr_name" TEXT COLLATE "C" NOT NULL,
    "uname" TEXT COLLATE "C" NOT NULL,
    "from_dat" DATE,
    "to_dat" DATE,
    "col_flag" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "access_x_agr_users_pkey" PRIMARY KEY ("extract_id", "line"),
    CONSTRAINT "access_x_agr_users_extract_id_fkey" FOREIGN KEY ("extract_id") REFERENCES "access_extracts"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_x_agr_agrs" (
    "extract_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "agr_name" TEXT COLLATE "C" NOT NULL,
    "child_agr" TEXT COLLATE "C" NOT NULL,
    CONSTRAINT "access_x_agr_agrs_pkey" PRIMARY KEY ("extract_id", "line"),
    CONSTRAINT "access_x_agr_agrs_extract_id_fkey" FOREIGN KEY ("extract_id") REFERENCES "access_extracts"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_x_agr_1251" (
    "extract_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "agr_name" TEXT COLLATE "C" NOT NULL,
    "object" TEXT COLLATE "C" NOT NULL,
    "auth" TEXT COLLATE "C" NOT NULL,
    "field" TEXT COLLATE "C" NOT NULL,
    "low" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "high" TEXT COLLATE "C" NOT NULL DEFAULT '',
    "deleted" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "access_x_agr_1251_pkey" PRIMARY KEY ("extract_id", "line"),
    CONSTRAINT "access_x_agr_1251_extract_id_fkey" FOREIGN KEY ("extract_id") REFERENCES "access_extracts"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_x_agr_texts" (
    "extract_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "agr_name" TEXT COLLATE "C" NOT NULL,
    "text" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "access_x_agr_texts_pkey" PRIMARY KEY ("extract_id", "line"),
    CONSTRAINT "access_x_agr_texts_extract_id_fkey" FOREIGN KEY ("extract_id") REFERENCES "access_extracts"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_x_usage" (
    "extract_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "bname" TEXT COLLATE "C" NOT NULL,
    "tcode" TEXT COLLATE "C" NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,
    "last_used" DATE,
    CONSTRAINT "access_x_usage_pkey" PRIMARY KEY ("extract_id", "line"),
    CONSTRAINT "access_x_usage_extract_id_fkey" FOREIGN KEY ("extract_id") REFERENCES "access_extracts"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_analysis_runs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "rule_set_id" UUID NOT NULL,
    "systems" TEXT[],
    "extract_ids" UUID[],
    "as_of" DATE NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'processing',
    "progress" INTEGER NOT NULL DEFAULT 0,
    "conflicts" INTEGER NOT NULL DEFAULT 0,
    "rows" INTEGER NOT NULL DEFAULT 0,
    "users" INTEGER NOT NULL DEFAULT 0,
    "exercised" INTEGER NOT NULL DEFAULT 0,
    "added" INTEGER NOT NULL DEFAULT 0,
    "removed" INTEGER NOT NULL DEFAULT 0,
    "started_by" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "error_message" TEXT,
    CONSTRAINT "access_analysis_runs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "access_analysis_runs_status_check" CHECK ("status" IN ('processing', 'completed', 'failed')),
    CONSTRAINT "access_analysis_runs_rule_set_id_fkey" FOREIGN KEY ("rule_set_id") REFERENCES "access_rule_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "access_analysis_runs_rule_set_id_status_idx" ON "access_analysis_runs"("rule_set_id", "status");

CREATE TABLE "access_conflicts" (
    "run_id" UUID NOT NULL,
    "user_id" TEXT COLLATE "C" NOT NULL,
    "risk_id" TEXT COLLATE "C" NOT NULL,
    "exercised" BOOLEAN NOT NULL,
    CONSTRAINT "access_conflicts_pkey" PRIMARY KEY ("run_id", "user_id", "risk_id"),
    CONSTRAINT "access_conflicts_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "access_analysis_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "access_conflict_rows" (
    "run_id" UUID NOT NULL,
    "row_no" INTEGER NOT NULL,
    "user_id" TEXT COLLATE "C" NOT NULL,
    "risk_id" TEXT COLLATE "C" NOT NULL,
    "rule_id" TEXT NOT NULL,
    "function_id" TEXT COLLATE "C" NOT NULL,
    "system" TEXT COLLATE "C" NOT NULL,
    "action" TEXT COLLATE "C" NOT NULL,
    "role" TEXT COLLATE "C" NOT NULL,
    "composite" TEXT COLLATE "C" NOT NULL,
    "resource" TEXT NOT NULL DEFAULT '',
    "resource_extn" TEXT NOT NULL DEFAULT '',
    "value_from" TEXT NOT NULL DEFAULT '',
    "value_to" TEXT NOT NULL DEFAULT '',
    "execution_count" BIGINT,
    "last_executed_on" DATE,
    CONSTRAINT "access_conflict_rows_pkey" PRIMARY KEY ("run_id", "row_no"),
    CONSTRAINT "access_conflict_rows_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "access_analysis_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
