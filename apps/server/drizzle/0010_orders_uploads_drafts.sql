CREATE TABLE "case_drafts" (
	"draft_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "case_drafts_draft_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"owner_user_id" integer NOT NULL,
	"doctor_user_id" integer,
	"fields" jsonb NOT NULL,
	"files" jsonb NOT NULL,
	"step" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"upload_id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"declared_size" bigint NOT NULL,
	"storage_key" text NOT NULL,
	"completed_at" timestamp with time zone,
	"sha256" text,
	"content_kind" text,
	"claimed_by_case_id" integer,
	"claimed_by_draft_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uploads_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "parent_case_id" integer;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "order_type" text;--> statement-breakpoint
ALTER TABLE "case_drafts" ADD CONSTRAINT "case_drafts_owner_user_id_users_user_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_drafts" ADD CONSTRAINT "case_drafts_doctor_user_id_users_user_id_fk" FOREIGN KEY ("doctor_user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_claimed_by_case_id_cases_case_id_fk" FOREIGN KEY ("claimed_by_case_id") REFERENCES "public"."cases"("case_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_drafts_owner_updated" ON "case_drafts" USING btree ("owner_user_id","updated_at");--> statement-breakpoint
CREATE INDEX "uploads_created_idx" ON "uploads" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_parent_case_id_cases_case_id_fk" FOREIGN KEY ("parent_case_id") REFERENCES "public"."cases"("case_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cases_parent_idx" ON "cases" USING btree ("parent_case_id","case_id");--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_order_pair_check" CHECK (("cases"."parent_case_id" is null) = ("cases"."order_type" is null));