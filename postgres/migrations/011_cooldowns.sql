-- Cooldowns of expensive requests: when each key (an action and
-- an account, "congestion_refresh:42") last ran. Another run is refused
-- until the cooldown has passed, on every instance sharing the database.
CREATE TABLE IF NOT EXISTS cooldowns (
    key     text PRIMARY KEY,
    last_at timestamptz NOT NULL
);
