ALTER TABLE "jobs" ADD COLUMN "owner_user_id" integer;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "jobs_owner_claimed_idx" ON "jobs" USING btree ("owner_user_id","claimed_at");