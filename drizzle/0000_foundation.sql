CREATE TABLE `accounts` (
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`provider` text NOT NULL,
	`provider_account_id` text NOT NULL,
	`refresh_token` text,
	`access_token` text,
	`expires_at` integer,
	`token_type` text,
	`scope` text,
	`id_token` text,
	`session_state` text,
	PRIMARY KEY(`provider`, `provider_account_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `accounts_user_idx` ON `accounts` (`user_id`);--> statement-breakpoint
CREATE TABLE `agent_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_id` text NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`hash` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_used_at` text,
	`revoked_at` text,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_keys_hash_unique` ON `agent_keys` (`hash`);--> statement-breakpoint
CREATE INDEX `agent_keys_agent_idx` ON `agent_keys` (`agent_id`);--> statement-breakpoint
CREATE TABLE `agents` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`handle` text NOT NULL,
	`name` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agents_workspace_handle_idx` ON `agents` (`workspace_id`,`handle`);--> statement-breakpoint
CREATE TABLE `channel_members` (
	`channel_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`channel_id`, `user_id`),
	FOREIGN KEY (`channel_id`,`workspace_id`) REFERENCES `channels`(`id`,`workspace_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`,`user_id`) REFERENCES `memberships`(`workspace_id`,`user_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `channel_members_user_idx` ON `channel_members` (`user_id`);--> statement-breakpoint
CREATE INDEX `channel_members_workspace_user_idx` ON `channel_members` (`workspace_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `channels` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "channels_kind_check" CHECK("channels"."kind" in ('public', 'private', 'dm'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channels_workspace_name_idx` ON `channels` (`workspace_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `channels_id_workspace_idx` ON `channels` (`id`,`workspace_id`);--> statement-breakpoint
CREATE TABLE `fact_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fact_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`actor_kind` text NOT NULL,
	`actor_name` text NOT NULL,
	`before` text,
	`after` text,
	`at` text NOT NULL,
	FOREIGN KEY (`fact_id`) REFERENCES `facts`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "fact_events_kind_check" CHECK("fact_events"."kind" in ('remember', 'correct', 'pin', 'unpin', 'forget', 'restore'))
);
--> statement-breakpoint
CREATE INDEX `fact_events_fact_idx` ON `fact_events` (`fact_id`,`id`);--> statement-breakpoint
CREATE TABLE `facts` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`agent_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`scope` text NOT NULL,
	`scope_ref` text NOT NULL,
	`scope_label` text,
	`body` text NOT NULL,
	`body_key` text NOT NULL,
	`source_kind` text NOT NULL,
	`source_ref` text,
	`source_label` text,
	`source_channel_id` text,
	`created_by` text NOT NULL,
	`created_by_kind` text NOT NULL,
	`pinned` integer DEFAULT false NOT NULL,
	`corrected_at` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`forgotten_at` text,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`source_channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "facts_scope_check" CHECK("facts"."scope" in ('workspace', 'channel', 'person')),
	CONSTRAINT "facts_scope_ref_check" CHECK(("facts"."scope" = 'workspace') = ("facts"."scope_ref" = '')),
	CONSTRAINT "facts_source_kind_check" CHECK("facts"."source_kind" in ('message', 'session', 'person')),
	CONSTRAINT "facts_created_by_kind_check" CHECK("facts"."created_by_kind" in ('agent', 'user')),
	CONSTRAINT "facts_body_length_check" CHECK(length("facts"."body") between 1 and 500)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `facts_id_unique` ON `facts` (`id`);--> statement-breakpoint
CREATE INDEX `facts_recall_idx` ON `facts` (`agent_id`,`scope`,`scope_ref`,`pinned`,`updated_at`,`id`) WHERE "facts"."forgotten_at" is null;--> statement-breakpoint
CREATE INDEX `facts_list_idx` ON `facts` (`agent_id`,`scope`,`pinned`,`updated_at`,`id`) WHERE "facts"."forgotten_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX `facts_dedupe_idx` ON `facts` (`agent_id`,`scope`,`scope_ref`,`body_key`) WHERE "facts"."forgotten_at" is null;--> statement-breakpoint
CREATE INDEX `facts_forgotten_idx` ON `facts` (`agent_id`,`forgotten_at`) WHERE "facts"."forgotten_at" is not null;--> statement-breakpoint
CREATE INDEX `facts_workspace_idx` ON `facts` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `facts_source_channel_idx` ON `facts` (`source_channel_id`);--> statement-breakpoint
CREATE TABLE `memberships` (
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text DEFAULT 'member' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`workspace_id`, `user_id`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "memberships_role_check" CHECK("memberships"."role" in ('owner', 'member'))
);
--> statement-breakpoint
CREATE INDEX `memberships_user_idx` ON `memberships` (`user_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`session_token` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `sign_in_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sign_in_failures_key_at_idx` ON `sign_in_failures` (`key`,`at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text,
	`email` text NOT NULL,
	`email_verified` integer,
	`image` text,
	`password_hash` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `verification_tokens` (
	`identifier` text NOT NULL,
	`token` text NOT NULL,
	`expires` integer NOT NULL,
	PRIMARY KEY(`identifier`, `token`)
);
--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
