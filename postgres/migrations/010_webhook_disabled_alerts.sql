-- A webhook disabled after repeated failure raises an alert for its owner
-- (type webhook_disabled), besides the three alert types of the alerts API.
ALTER TABLE alerts DROP CONSTRAINT IF EXISTS alerts_type_check;
ALTER TABLE alerts ADD CONSTRAINT alerts_type_check
    CHECK (type IN ('sanctions_match', 'dark_fleet', 'river_level', 'webhook_disabled'));
