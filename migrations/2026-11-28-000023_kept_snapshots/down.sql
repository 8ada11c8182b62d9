DROP TABLE match_snapshots;
