-- Manual calibration overrides: an operator's factor for a
-- port's estimates of a commodity ('all': the port's estimates as a
-- whole), set with `overwatch calibration set`, with who set it, when and
-- why. It wins over the self-calibrated factor (docs/calibration.md).
CREATE TABLE IF NOT EXISTS calibration_overrides (
    port      text NOT NULL,
    commodity text NOT NULL,
    factor    double precision NOT NULL CHECK (factor > 0 AND factor <= 100),
    reason    text NOT NULL,
    set_by    text NOT NULL,
    set_at    timestamptz NOT NULL,
    PRIMARY KEY (port, commodity)
);
