-- Score sheets that forgive: besides rounds (and their corrections), a sheet's append-only
-- entries now record what its owner mended or decided, each as one more entry, so that the
-- version stays the number of entries and the entries list stays the whole audit trail:
--   'removal'  takes the last round away; `corrects` names the round's standing entry, `round`
--              the round it removed;
--   'rename'   a player renamed; `renamed` holds {seat, old_name, new_name}; `round` is the number of rounds
--              standing then;
--   'finish'   the owner ended the sheet early with the standings so far; `round` is the number
--              of rounds standing then.
-- Only a round entry carries a tally.
ALTER TABLE sheet_entries
    ADD COLUMN kind TEXT NOT NULL DEFAULT 'round'
        CHECK (kind IN ('round', 'removal', 'rename', 'finish')),
    ADD COLUMN renamed JSONB,
    ALTER COLUMN tally DROP NOT NULL,
    DROP CONSTRAINT sheet_entries_round_check,
    ADD CONSTRAINT sheet_entries_round_check CHECK (round >= 0),
    ADD CONSTRAINT sheet_entries_kind_shape CHECK (
        (kind = 'round') = (tally IS NOT NULL)
        AND (kind = 'rename') = (renamed IS NOT NULL)
        AND (kind IN ('round', 'removal') OR corrects IS NULL)
        AND (kind <> 'removal' OR corrects IS NOT NULL)
        AND (kind NOT IN ('round', 'removal') OR round >= 1)
    );
