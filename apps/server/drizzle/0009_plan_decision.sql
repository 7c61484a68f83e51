ALTER TABLE "treatment_plans" ADD COLUMN "decision" text;--> statement-breakpoint
-- Versions decided before this column: a request for changes always had a comment, an approval never.
UPDATE "treatment_plans" SET "decision" = CASE WHEN "comment" IS NULL THEN 'approved' ELSE 'changes_requested' END WHERE "decided_at" IS NOT NULL;
