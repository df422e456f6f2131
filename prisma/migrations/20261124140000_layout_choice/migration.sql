-- Preview before load (issue 14, point 6): the sheet and header row an
-- administrator chose in the preview ({ sheet?, headerRow? }), kept with the
-- upload so its load and a retry read the file from there.
ALTER TABLE "uploads" ADD COLUMN "layout_choice" JSONB;
