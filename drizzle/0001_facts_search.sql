-- Full-text search over fact bodies (SPEC §6). Drizzle's schema cannot declare an
-- FTS5 table, so this is drizzle-kit's "custom" migration. The index keeps no copy of
-- the text: it points at facts.seq, a stable INTEGER PRIMARY KEY, and triggers keep it
-- in step with every insert, body change and delete.
CREATE VIRTUAL TABLE `facts_fts` USING fts5(
	body,
	content='facts',
	content_rowid='seq',
	tokenize='unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `facts_fts_after_insert` AFTER INSERT ON `facts` BEGIN
	INSERT INTO facts_fts(rowid, body) VALUES (new.seq, new.body);
END;
--> statement-breakpoint
CREATE TRIGGER `facts_fts_after_delete` AFTER DELETE ON `facts` BEGIN
	INSERT INTO facts_fts(facts_fts, rowid, body) VALUES ('delete', old.seq, old.body);
END;
--> statement-breakpoint
CREATE TRIGGER `facts_fts_after_update` AFTER UPDATE OF body ON `facts` BEGIN
	INSERT INTO facts_fts(facts_fts, rowid, body) VALUES ('delete', old.seq, old.body);
	INSERT INTO facts_fts(rowid, body) VALUES (new.seq, new.body);
END;
