-- Fixed rate-limit windows shared by every API instance. A minute window
-- starts at the first request after the previous one ended; a day window is
-- the UTC calendar day.
CREATE TABLE IF NOT EXISTS rate_windows (
    key          text PRIMARY KEY,
    window_start timestamptz NOT NULL,
    window_end   timestamptz NOT NULL,
    used         integer NOT NULL
);
CREATE INDEX IF NOT EXISTS rate_windows_end ON rate_windows (window_end);

-- rate_take draws one request from every bucket at once, or from none: it
-- locks the buckets' rows in key order (no deadlocks between instances),
-- starts a new window where the old one has ended, and admits the request
-- only if every bucket is under its limit. It returns, in argument order,
-- each bucket's count after the request, its window end and the verdict.
CREATE OR REPLACE FUNCTION rate_take(p_keys text[], p_limits integer[], p_periods text[], p_now timestamptz)
RETURNS TABLE (r_used integer, r_end timestamptz, r_allowed boolean)
LANGUAGE plpgsql AS $$
DECLARE
    n      integer := coalesce(array_length(p_keys, 1), 0);
    i      integer;
    ok     boolean := true;
    starts timestamptz[];
    ends   timestamptz[];
    useds  integer[];
    w      rate_windows%ROWTYPE;
    day0   timestamptz;
BEGIN
    FOR i IN SELECT t.ord FROM unnest(p_keys) WITH ORDINALITY AS t(k, ord) ORDER BY t.k LOOP
        INSERT INTO rate_windows (key, window_start, window_end, used)
        VALUES (p_keys[i], p_now, p_now, 0)
        ON CONFLICT (key) DO NOTHING;
        SELECT * INTO w FROM rate_windows WHERE rate_windows.key = p_keys[i] FOR UPDATE;
        IF w.window_end <= p_now THEN
            IF p_periods[i] = 'minute' THEN
                starts[i] := p_now;
                ends[i] := p_now + interval '1 minute';
            ELSE
                day0 := date_trunc('day', p_now AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
                starts[i] := day0;
                ends[i] := day0 + interval '1 day';
            END IF;
            useds[i] := 0;
        ELSE
            starts[i] := w.window_start;
            ends[i] := w.window_end;
            useds[i] := w.used;
        END IF;
        IF useds[i] >= p_limits[i] THEN
            ok := false;
        END IF;
    END LOOP;
    FOR i IN 1..n LOOP
        IF ok THEN
            useds[i] := useds[i] + 1;
        END IF;
        UPDATE rate_windows
           SET window_start = starts[i], window_end = ends[i], used = useds[i]
         WHERE rate_windows.key = p_keys[i];
        r_used := useds[i];
        r_end := ends[i];
        r_allowed := ok;
        RETURN NEXT;
    END LOOP;
END
$$;
