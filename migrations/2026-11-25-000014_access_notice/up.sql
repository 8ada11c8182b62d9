-- A re-issued token (or a renamed seat) bumps `access_version`: it is announced too, so that live
-- streams opened with a token that no longer holds end at once, not at the match's next change.
CREATE OR REPLACE FUNCTION referee_notify_matches() RETURNS trigger AS $$
BEGIN
    PERFORM referee_notify(ARRAY(
        SELECT after.id::text || ':' || after.version::text
        FROM after JOIN before ON before.id = after.id
        WHERE after.status IS DISTINCT FROM before.status
           OR after.access_version IS DISTINCT FROM before.access_version
           OR (after.kind = 'sheet' AND after.version IS DISTINCT FROM before.version)));
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
