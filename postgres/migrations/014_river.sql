-- River levels: the river alert source resolves the alerts of
-- an episode that has ended by its event key, across accounts.
CREATE INDEX IF NOT EXISTS alerts_open_event_key ON alerts (event_key) WHERE resolved_at IS NULL;
