CREATE TABLE `fact_look_alikes` (
	`fact_id` text NOT NULL,
	`other_id` text NOT NULL,
	`score` real NOT NULL,
	PRIMARY KEY(`fact_id`, `other_id`),
	FOREIGN KEY (`fact_id`) REFERENCES `facts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`other_id`) REFERENCES `facts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `fact_look_alikes_other_idx` ON `fact_look_alikes` (`other_id`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_fact_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fact_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`actor_kind` text NOT NULL,
	`actor_name` text NOT NULL,
	`before` text,
	`after` text,
	`other_fact_id` text,
	`at` text NOT NULL,
	FOREIGN KEY (`fact_id`) REFERENCES `facts`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "fact_events_kind_check" CHECK("__new_fact_events"."kind" in ('remember', 'correct', 'pin', 'unpin', 'forget', 'restore', 'propose', 'approve', 'decline', 'replace'))
);
--> statement-breakpoint
INSERT INTO `__new_fact_events`("id", "fact_id", "kind", "actor_id", "actor_kind", "actor_name", "before", "after", "at") SELECT "id", "fact_id", "kind", "actor_id", "actor_kind", "actor_name", "before", "after", "at" FROM `fact_events`;--> statement-breakpoint
DROP TABLE `fact_events`;--> statement-breakpoint
ALTER TABLE `__new_fact_events` RENAME TO `fact_events`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `fact_events_fact_idx` ON `fact_events` (`fact_id`,`id`);--> statement-breakpoint
CREATE INDEX `fact_events_other_fact_idx` ON `fact_events` (`other_fact_id`) WHERE "fact_events"."other_fact_id" is not null;--> statement-breakpoint
ALTER TABLE `agents` ADD `workspace_facts` text DEFAULT 'wait' NOT NULL;--> statement-breakpoint
ALTER TABLE `agents` ADD `channel_facts` text DEFAULT 'keep' NOT NULL;--> statement-breakpoint
ALTER TABLE `facts` ADD `proposed_at` text;--> statement-breakpoint
ALTER TABLE `facts` ADD `proposal_reason` text;