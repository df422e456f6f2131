-- Real-world exports (issue 14): an upload that loaded with something to tell
-- (a column not mapped, a value that could not be read) keeps the warnings and
-- shows as 'Completed with warnings'; the layout found in the file (format,
-- sheet, header row, encoding, delimiter, decimal separator) is kept for View
-- Details. Execution counts keep their decimals ('313,5' is 313.5).
ALTER TABLE "uploads" ADD COLUMN "warnings" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "uploads" ADD COLUMN "source_layout" JSONB;
ALTER TABLE "risk_rows" ALTER COLUMN "execution_count" TYPE DOUBLE PRECISION;
