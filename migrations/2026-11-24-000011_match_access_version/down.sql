ALTER TABLE matches DROP COLUMN access_version;
