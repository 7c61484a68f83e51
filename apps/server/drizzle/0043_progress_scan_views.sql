ALTER TABLE "progress_scans" ADD COLUMN "upper_view_key" text;--> statement-breakpoint
ALTER TABLE "progress_scans" ADD COLUMN "upper_view_bytes" bigint;--> statement-breakpoint
ALTER TABLE "progress_scans" ADD COLUMN "lower_view_key" text;--> statement-breakpoint
ALTER TABLE "progress_scans" ADD COLUMN "lower_view_bytes" bigint;