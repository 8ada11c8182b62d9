DROP TABLE match_hands;
