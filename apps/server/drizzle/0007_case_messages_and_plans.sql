CREATE TABLE "case_message_files" (
	"file_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "case_message_files_file_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"message_id" integer NOT NULL,
	"case_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"file_size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_message_files_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "case_message_mails" (
	"case_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"last_mailed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "case_message_mails_case_id_user_id_pk" PRIMARY KEY("case_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "case_message_reads" (
	"case_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"last_read_message_id" integer NOT NULL,
	CONSTRAINT "case_message_reads_user_id_case_id_pk" PRIMARY KEY("user_id","case_id")
);
--> statement-breakpoint
CREATE TABLE "case_messages" (
	"message_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "case_messages_message_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" integer NOT NULL,
	"author_user_id" integer NOT NULL,
	"side" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_stage_files" (
	"stage_file_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "plan_stage_files_stage_file_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"plan_id" integer NOT NULL,
	"case_id" integer NOT NULL,
	"arch" text NOT NULL,
	"stage" integer NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"file_size" bigint NOT NULL,
	"sha256" text NOT NULL,
	CONSTRAINT "plan_stage_files_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "treatment_plans" (
	"plan_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "treatment_plans_plan_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" integer NOT NULL,
	"version" integer NOT NULL,
	"state" text DEFAULT 'awaiting_approval' NOT NULL,
	"summary" jsonb NOT NULL,
	"uploaded_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"comment" text
);
--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "plan_state" text;--> statement-breakpoint
ALTER TABLE "case_message_files" ADD CONSTRAINT "case_message_files_message_id_case_messages_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."case_messages"("message_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_message_files" ADD CONSTRAINT "case_message_files_case_id_cases_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("case_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_message_mails" ADD CONSTRAINT "case_message_mails_case_id_cases_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("case_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_message_mails" ADD CONSTRAINT "case_message_mails_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_message_reads" ADD CONSTRAINT "case_message_reads_case_id_cases_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("case_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_message_reads" ADD CONSTRAINT "case_message_reads_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_messages" ADD CONSTRAINT "case_messages_case_id_cases_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("case_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_messages" ADD CONSTRAINT "case_messages_author_user_id_users_user_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_stage_files" ADD CONSTRAINT "plan_stage_files_plan_id_treatment_plans_plan_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."treatment_plans"("plan_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_stage_files" ADD CONSTRAINT "plan_stage_files_case_id_cases_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("case_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plans" ADD CONSTRAINT "treatment_plans_case_id_cases_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("case_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plans" ADD CONSTRAINT "treatment_plans_uploaded_by_users_user_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plans" ADD CONSTRAINT "treatment_plans_decided_by_users_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_message_files_message_idx" ON "case_message_files" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "case_messages_case_idx" ON "case_messages" USING btree ("case_id","message_id");--> statement-breakpoint
CREATE INDEX "case_messages_side_idx" ON "case_messages" USING btree ("side","message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_stage_files_plan_arch_stage_unique" ON "plan_stage_files" USING btree ("plan_id","arch","stage");--> statement-breakpoint
CREATE UNIQUE INDEX "treatment_plans_case_version_unique" ON "treatment_plans" USING btree ("case_id","version");--> statement-breakpoint
CREATE INDEX "cases_plan_state_idx" ON "cases" USING btree ("plan_state","doctor_user_id","created_at","case_id") WHERE "cases"."plan_state" is not null;