CREATE TABLE `fact_usage` (
	`fact_id` text PRIMARY KEY NOT NULL,
	`recalled_count` integer DEFAULT 0 NOT NULL,
	`last_recalled_at` text,
	FOREIGN KEY (`fact_id`) REFERENCES `facts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `fact_vectors` (
	`fact_id` text PRIMARY KEY NOT NULL,
	`model` text NOT NULL,
	`embedding` F32_BLOB NOT NULL,
	`made_at` text NOT NULL,
	FOREIGN KEY (`fact_id`) REFERENCES `facts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `fact_vectors_due` (
	`fact_id` text PRIMARY KEY NOT NULL,
	`since` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`fact_id`) REFERENCES `facts`(`id`) ON UPDATE no action ON DELETE cascade
);
