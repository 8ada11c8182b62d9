-- Instances cache live matches between moves (seat token hashes and seat names included). Every
-- change to who may act for a seat, or to a seat's player, bumps this counter on the match row, and
-- a cached move writes only while the counter is still the one it read: a token re-issued or a
-- seat renamed through another instance turns that instance's cached copy stale at once.
ALTER TABLE matches ADD COLUMN access_version BIGINT NOT NULL DEFAULT 0;
