ALTER TABLE matches DROP COLUMN chance_reporters;
