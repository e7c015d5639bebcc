-- Made with `drizzle-kit generate --custom` (a schema cannot declare triggers).
-- Meaning follows the words (lib/embeddings): every new fact and every body change
-- puts the fact in `fact_vectors_due`, and a body change deletes the old vector in
-- the same statement, so no writer (app, CLI, import, another process) can leave a
-- corrected fact findable by what it used to say. Purging cascades through the keys.
CREATE TRIGGER `facts_vector_due_after_insert` AFTER INSERT ON `facts` BEGIN
	INSERT OR IGNORE INTO fact_vectors_due (fact_id) VALUES (new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `facts_vector_stale_after_update` AFTER UPDATE OF body ON `facts` BEGIN
	DELETE FROM fact_vectors WHERE fact_id = new.id;
	INSERT OR IGNORE INTO fact_vectors_due (fact_id) VALUES (new.id);
END;
--> statement-breakpoint
INSERT OR IGNORE INTO fact_vectors_due (fact_id) SELECT id FROM facts WHERE forgotten_at IS NULL;
