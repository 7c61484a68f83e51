ALTER TABLE "cases" ADD COLUMN "status_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Cases already here entered their status at their last status change, or when submitted.
UPDATE "cases" SET "status_changed_at" = coalesce(
  (SELECT max("changed_at") FROM "case_status_history" h WHERE h."case_id" = "cases"."case_id" AND h."from_status" IS NOT NULL),
  "created_at");--> statement-breakpoint
CREATE INDEX "cases_status_changed_idx" ON "cases" USING btree ("status","status_changed_at");