-- Hands entered by their own seats for the deal a table-randomness match waits for
-- (docs/contract.md, "Hands entered at the table"): each seat types its own cards on its own
-- phone, and the deal, reported with the table's public cards only, takes them. A hand is kept
-- with the match's version it was entered at, so a hand entered for one deal never fills a later
-- one. Sharded, like every per-match table, by the match.
CREATE TABLE match_hands (
    match_id UUID NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL,
    version  BIGINT NOT NULL,
    cards    JSONB NOT NULL,
    PRIMARY KEY (match_id, seat)
);
