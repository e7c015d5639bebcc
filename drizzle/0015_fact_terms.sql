ALTER TABLE `facts` ADD `terms` text;--> statement-breakpoint
CREATE INDEX `facts_terms_missing_idx` ON `facts` (`seq`) WHERE "facts"."terms" is null;--> statement-breakpoint
-- Written by hand after drizzle-kit's part (a schema cannot declare triggers or WITHOUT ROWID).
-- Ranked recall's word index, kept by the database: each live fact's terms (facts.terms,
-- factTerms in lib/memory/terms.ts) become postings keyed by the fact's recall branch, so
-- a question reads the postings of its own terms in its own branches and never a
-- place's facts. Triggers keep them in the statement that changes the fact, whoever
-- writes (app, CLI, import, another process), as 0005's versions and 0010's vectors do.
-- A branch (agent, workspace, scope, ref: what recall's BRANCH_WHERE asks) gets a
-- small integer: postings repeat it 10-15 times a fact. No foreign key to agents: a
-- fact deleted by a cascade must still find its branch to delete its postings, and a
-- leftover row of four ids costs nothing.
CREATE TABLE `recall_branches` (
	`id` integer PRIMARY KEY,
	`agent_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`scope` text NOT NULL,
	`scope_ref` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recall_branches_key_idx` ON `recall_branches` (`agent_id`, `workspace_id`, `scope`, `scope_ref`);
--> statement-breakpoint
-- One row per (branch, term, fact): tf is the term's weight in the fact, len the
-- fact's (BM25's), and what recall filters by without reading the fact: its last day,
-- and whether it is a proposal (indexed, flagged: never recalled, but look-alikes are
-- found among them). The term '' is the fact itself, with tf = len: the place's
-- count and average length are read off it. WITHOUT ROWID: the key is the row.
CREATE TABLE `fact_terms` (
	`branch` integer NOT NULL,
	`term` text NOT NULL,
	`fact_seq` integer NOT NULL,
	`tf` real NOT NULL,
	`len` real NOT NULL,
	`valid_until` text,
	`proposed` integer NOT NULL,
	PRIMARY KEY (`branch`, `term`, `fact_seq`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER `facts_terms_after_insert` AFTER INSERT ON `facts`
WHEN new.forgotten_at IS NULL AND new.terms IS NOT NULL BEGIN
	INSERT OR IGNORE INTO recall_branches (agent_id, workspace_id, scope, scope_ref) VALUES (new.agent_id, new.workspace_id, new.scope, new.scope_ref);
	INSERT OR REPLACE INTO fact_terms (branch, term, fact_seq, tf, len, valid_until, proposed)
		SELECT (SELECT id FROM recall_branches WHERE agent_id = new.agent_id AND workspace_id = new.workspace_id AND scope = new.scope AND scope_ref = new.scope_ref),
			t.key, new.seq, t.value, (SELECT total(value) FROM json_each(new.terms)), new.valid_until, new.proposed_at IS NOT NULL
		FROM json_each(new.terms) t
		UNION ALL
		SELECT (SELECT id FROM recall_branches WHERE agent_id = new.agent_id AND workspace_id = new.workspace_id AND scope = new.scope AND scope_ref = new.scope_ref),
			'', new.seq, (SELECT total(value) FROM json_each(new.terms)), (SELECT total(value) FROM json_each(new.terms)),
			new.valid_until, new.proposed_at IS NOT NULL;
END;
--> statement-breakpoint
-- Anything postings carry or are keyed by: the old ones go by their full key, the new ones come from the new row.
CREATE TRIGGER `facts_terms_after_update` AFTER UPDATE OF terms, forgotten_at, proposed_at, valid_until, scope, scope_ref, agent_id, workspace_id ON `facts`
WHEN old.terms IS NOT new.terms OR old.forgotten_at IS NOT new.forgotten_at OR old.proposed_at IS NOT new.proposed_at
	OR old.valid_until IS NOT new.valid_until OR old.scope IS NOT new.scope OR old.scope_ref IS NOT new.scope_ref
	OR old.agent_id IS NOT new.agent_id OR old.workspace_id IS NOT new.workspace_id BEGIN
	DELETE FROM fact_terms
		WHERE branch = (SELECT id FROM recall_branches WHERE agent_id = old.agent_id AND workspace_id = old.workspace_id AND scope = old.scope AND scope_ref = old.scope_ref)
			AND term IN (SELECT key FROM json_each(old.terms) UNION ALL SELECT '') AND fact_seq = old.seq;
	INSERT OR IGNORE INTO recall_branches (agent_id, workspace_id, scope, scope_ref)
		SELECT new.agent_id, new.workspace_id, new.scope, new.scope_ref WHERE new.forgotten_at IS NULL AND new.terms IS NOT NULL;
	INSERT OR REPLACE INTO fact_terms (branch, term, fact_seq, tf, len, valid_until, proposed)
		SELECT (SELECT id FROM recall_branches WHERE agent_id = new.agent_id AND workspace_id = new.workspace_id AND scope = new.scope AND scope_ref = new.scope_ref),
			t.key, new.seq, t.value, (SELECT total(value) FROM json_each(new.terms)), new.valid_until, new.proposed_at IS NOT NULL
		FROM json_each(new.terms) t WHERE new.forgotten_at IS NULL
		UNION ALL
		SELECT (SELECT id FROM recall_branches WHERE agent_id = new.agent_id AND workspace_id = new.workspace_id AND scope = new.scope AND scope_ref = new.scope_ref),
			'', new.seq, (SELECT total(value) FROM json_each(new.terms)), (SELECT total(value) FROM json_each(new.terms)),
			new.valid_until, new.proposed_at IS NOT NULL
		WHERE new.forgotten_at IS NULL AND new.terms IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `facts_terms_after_delete` AFTER DELETE ON `facts` BEGIN
	DELETE FROM fact_terms
		WHERE branch = (SELECT id FROM recall_branches WHERE agent_id = old.agent_id AND workspace_id = old.workspace_id AND scope = old.scope AND scope_ref = old.scope_ref)
			AND term IN (SELECT key FROM json_each(old.terms) UNION ALL SELECT '') AND fact_seq = old.seq;
END;
--> statement-breakpoint
-- A writer that changes a fact's text or labels without its terms (plain SQL) must not
-- leave the fact findable by what it used to say: its terms and postings go, and it is
-- found by its words again once db/migrate.ts fills them (on the next start).
CREATE TRIGGER `facts_terms_stale_after_update` AFTER UPDATE OF body, scope_label, source_label ON `facts`
WHEN new.terms IS NOT NULL AND new.terms IS old.terms AND (new.body IS NOT old.body
	OR new.scope_label IS NOT old.scope_label OR new.source_label IS NOT old.source_label) BEGIN
	UPDATE facts SET terms = NULL WHERE seq = new.seq;
END;
