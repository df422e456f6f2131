-- A JSON number of an audit event's before / after in the chain's canonical
-- form (audit_event_canonical.sql): the IEEE double the number reads as (what
-- JSON.parse gives, rounded correctly), written with its shortest digits that
-- read back as that double, in plain notation (no exponent, no trailing zero,
-- no '-0'): 1.50 -> 1.5, 1e21 -> 1000000000000000000000, 1.5e-7 ->
-- 0.00000015. The double's text is the shortest only with extra_float_digits
-- at 1 (the default), hence the SET. A number beyond a double's range reads as
-- JavaScript reads it: 'Infinity' / '-Infinity', or 0 below the smallest.
CREATE OR REPLACE FUNCTION "audit_canonical_number"("n" NUMERIC) RETURNS TEXT
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET extra_float_digits = 1 AS $$
BEGIN
  IF "n" = 0 OR (abs("n") < 1e308 AND abs("n") > 1e-307) THEN
    RETURN "n"::float8::text::numeric::text;
  END IF;
  BEGIN
    RETURN "n"::float8::text::numeric::text;
  EXCEPTION WHEN numeric_value_out_of_range THEN
    RETURN CASE WHEN abs("n") < 1 THEN '0' WHEN "n" < 0 THEN '-Infinity' ELSE 'Infinity' END;
  END;
END;
$$;
