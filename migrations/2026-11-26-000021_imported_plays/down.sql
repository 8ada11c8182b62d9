DELETE FROM sheet_entries WHERE kind = 'import';
ALTER TABLE sheet_entries
    DROP CONSTRAINT sheet_entries_import_shape,
    DROP CONSTRAINT sheet_entries_kind_check,
    ADD CONSTRAINT sheet_entries_kind_check
        CHECK (kind IN ('round', 'removal', 'rename', 'finish')),
    DROP COLUMN imported;
