-- The devices and addresses an account signed in from (docs/decisions/0257-no-lock-out-from-a-known-device.md):
-- a login from one of them is not held back by the account-wide count of failed logins. Only
-- hashes are kept: `key` is the SHA-256 of the kind, the account and the device token or the
-- address (an IPv6 address by its /64), `account` the SHA-256 of the account's e-mail address.
CREATE TABLE known_logins (
    key TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    last_seen TIMESTAMP NOT NULL,
    expires TIMESTAMP NOT NULL
);
CREATE INDEX known_logins_account ON known_logins (account, last_seen);
CREATE INDEX known_logins_expires ON known_logins (expires);
