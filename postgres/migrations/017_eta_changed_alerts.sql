-- A watched vessel whose predicted ETA moves, or whose predicted next port
-- changes, raises an eta_changed alert (the predictions' alert source).
ALTER TABLE alerts DROP CONSTRAINT IF EXISTS alerts_type_check;
ALTER TABLE alerts ADD CONSTRAINT alerts_type_check
    CHECK (type IN ('sanctions_match', 'dark_fleet', 'river_level', 'webhook_disabled', 'eta_changed'));
