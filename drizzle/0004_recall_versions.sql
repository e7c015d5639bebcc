ALTER TABLE `agents` ADD `memory_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `places_version` integer DEFAULT 0 NOT NULL;