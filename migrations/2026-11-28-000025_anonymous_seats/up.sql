-- A seat no player sits at: BG Stats' anonymous player in an imported play. Its score and place
-- stay in the play's standings, but it is nobody's result: it is counted in no player's totals,
-- rated on no board, and its player key (the space's empty key) matches no name.
ALTER TABLE match_seats ADD COLUMN anonymous BOOLEAN NOT NULL DEFAULT false;
