-- A jsonb value (an audit event's before or after) in the chain's canonical
-- form (audit_event_canonical.sql): jsonb's own text (keys ordered by their
-- length in UTF-8 bytes, then bytewise; ', ' between members and items, ': '
-- after a key; strings escaped as jsonb escapes them: \" \\ \b \f \n \r \t,
-- other characters below U+0020 as \u00XX in lower case, everything else as
-- is), except that each number is written as audit_canonical_number writes
-- it. SQL NULL and JSON null are both 'null'. Most values hold no number
-- jsonb would write otherwise (integers of up to 15 digits are the same either
-- way), so their text is taken as it is, with no walk: a '.' or 16 digits in a
-- row outside the strings sends the value down the walk.
CREATE OR REPLACE FUNCTION "audit_canonical_json"("j" JSONB) RETURNS TEXT
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  t TEXT;
BEGIN
  IF "j" IS NULL THEN
    RETURN 'null';
  END IF;
  t := "j"::text;
  IF t !~ '[.]|[0-9]{16}' OR regexp_replace(t, '"(?:[^"\\]|\\.)*"', '', 'g') !~ '[.]|[0-9]{16}' THEN
    RETURN t;
  END IF;
  CASE jsonb_typeof("j")
    WHEN 'object' THEN
      RETURN '{' || coalesce((SELECT string_agg(to_jsonb(e."key")::text || ': ' || "audit_canonical_json"(e."value"), ', ' ORDER BY e."n")
                                FROM jsonb_each("j") WITH ORDINALITY e("key", "value", "n")), '') || '}';
    WHEN 'array' THEN
      RETURN '[' || coalesce((SELECT string_agg("audit_canonical_json"(e."value"), ', ' ORDER BY e."n")
                                FROM jsonb_array_elements("j") WITH ORDINALITY e("value", "n")), '') || ']';
    WHEN 'number' THEN
      RETURN "audit_canonical_number"("j"::numeric);
    ELSE
      RETURN t;
  END CASE;
END;
$$;
