CREATE TABLE "case_attachments" (
	"attachment_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "case_attachments_attachment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" integer NOT NULL,
	"file_type" text NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"file_size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_attachments_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "case_status_history" (
	"history_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "case_status_history_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" integer NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"changed_by" integer NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cases" (
	"case_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cases_case_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tracking_no" text NOT NULL,
	"doctor_user_id" integer NOT NULL,
	"clinic_id" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"dob" date NOT NULL,
	"gender" text DEFAULT '' NOT NULL,
	"arches" text NOT NULL,
	"nature" text NOT NULL,
	"shipment" text DEFAULT '' NOT NULL,
	"passive_aligner" text DEFAULT '' NOT NULL,
	"aligner_shipment" text NOT NULL,
	"ipr" text DEFAULT '' NOT NULL,
	"complaint" text NOT NULL,
	"impression_type" text NOT NULL,
	"image_type" text NOT NULL,
	"midline" text NOT NULL,
	"overjet" text NOT NULL,
	"overbite" text NOT NULL,
	"cross_bite" text NOT NULL,
	"right_canine" text DEFAULT '' NOT NULL,
	"left_canine" text DEFAULT '' NOT NULL,
	"right_molar" text DEFAULT '' NOT NULL,
	"left_molar" text DEFAULT '' NOT NULL,
	"ipr_preference" text DEFAULT '' NOT NULL,
	"proclination" text DEFAULT '' NOT NULL,
	"expansion" text DEFAULT '' NOT NULL,
	"extraction" text DEFAULT '' NOT NULL,
	"ipr_prescription" text DEFAULT '' NOT NULL,
	"auxiliary_type" text DEFAULT '' NOT NULL,
	"tooth_numbering" text DEFAULT '' NOT NULL,
	"move_tooth" text DEFAULT '' NOT NULL,
	"no_elastic" text DEFAULT '' NOT NULL,
	"no_attachment" text DEFAULT '' NOT NULL,
	"extract_tooth" text DEFAULT '' NOT NULL,
	"special_instruction" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"terms_accepted_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "case_attachments" ADD CONSTRAINT "case_attachments_case_id_cases_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("case_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_status_history" ADD CONSTRAINT "case_status_history_case_id_cases_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("case_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_status_history" ADD CONSTRAINT "case_status_history_changed_by_users_user_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_doctor_user_id_users_user_id_fk" FOREIGN KEY ("doctor_user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_clinic_id_clinics_clinic_id_fk" FOREIGN KEY ("clinic_id") REFERENCES "public"."clinics"("clinic_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_attachments_case_idx" ON "case_attachments" USING btree ("case_id","attachment_id");--> statement-breakpoint
CREATE INDEX "case_status_history_case_idx" ON "case_status_history" USING btree ("case_id","history_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cases_tracking_no_unique" ON "cases" USING btree ("tracking_no");--> statement-breakpoint
CREATE INDEX "cases_status_created_idx" ON "cases" USING btree ("status","created_at","case_id");--> statement-breakpoint
CREATE INDEX "cases_doctor_status_created_idx" ON "cases" USING btree ("doctor_user_id","status","created_at","case_id");--> statement-breakpoint
CREATE INDEX "cases_created_idx" ON "cases" USING btree ("created_at","case_id");--> statement-breakpoint
CREATE INDEX "cases_tracking_no_trgm_idx" ON "cases" USING gin ("tracking_no" gin_trgm_ops);