-- A webhook disabled after repeated failure raises an alert for its owner
-- (type webhook_disabled), besides the spec's three alert types.
ALTER TABLE alerts DROP CONSTRAINT IF EXISTS alerts_type_check;
ALTER TABLE alerts ADD CONSTRAINT alerts_type_check
    CHECK (type IN ('sanctions_match', 'dark_fleet', 'river_level', 'webhook_disabled'));
