PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_fact_usage` (
	`fact_seq` integer PRIMARY KEY NOT NULL,
	`recalled_count` integer DEFAULT 0 NOT NULL,
	`last_recalled_at` text,
	FOREIGN KEY (`fact_seq`) REFERENCES `facts`(`seq`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Each count moves to its fact's seq (fact_usage's key was the fact's id); a count without its fact had nowhere to be.
INSERT INTO `__new_fact_usage`("fact_seq", "recalled_count", "last_recalled_at") SELECT `facts`.`seq`, `fact_usage`.`recalled_count`, `fact_usage`.`last_recalled_at` FROM `fact_usage` JOIN `facts` ON `facts`.`id` = `fact_usage`.`fact_id`;--> statement-breakpoint
DROP TABLE `fact_usage`;--> statement-breakpoint
ALTER TABLE `__new_fact_usage` RENAME TO `fact_usage`;--> statement-breakpoint
PRAGMA foreign_keys=ON;