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
ALTER TABLE "case_drafts" ADD CONSTRAINT "case_drafts_owner_user_id_users_user_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_drafts" ADD CONSTRAINT "case_drafts_doctor_user_id_users_user_id_fk" FOREIGN KEY ("doctor_user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_drafts_owner_updated" ON "case_drafts" USING btree ("owner_user_id","updated_at");