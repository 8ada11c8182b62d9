-- Plays brought in from another score keeper (a BG Stats file): each becomes a sheet whose one
-- entry, kind 'import', holds the play's final standings (`imported`), since the file has only
-- final scores, no rounds. Such a sheet is closed as it arrives: its players may be renamed, it
-- may be played again, but it has no round to correct.
ALTER TABLE sheet_entries
    ADD COLUMN imported JSONB,
    DROP CONSTRAINT sheet_entries_kind_check,
    ADD CONSTRAINT sheet_entries_kind_check
        CHECK (kind IN ('round', 'removal', 'rename', 'finish', 'import')),
    ADD CONSTRAINT sheet_entries_import_shape CHECK ((kind = 'import') = (imported IS NOT NULL));
