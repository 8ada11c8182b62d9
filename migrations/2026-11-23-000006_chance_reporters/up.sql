-- Who may report the chance outcomes of a table-randomness match. Matches created before it get
-- the default: the owner, and each seat for its own draws and rolls (the dealer's seat the deal).
ALTER TABLE matches ADD COLUMN chance_reporters TEXT NOT NULL DEFAULT 'owner_and_acting_seat'
    CHECK (chance_reporters IN ('owner', 'owner_and_acting_seat', 'any_seat'));
