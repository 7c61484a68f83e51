ALTER TABLE "progress_scans" ADD COLUMN "reason_code" text;--> statement-breakpoint
ALTER TABLE "progress_scans" ADD COLUMN "reason_params" jsonb;