CREATE TABLE "doctor_assistants" (
	"doctor_user_id" integer NOT NULL,
	"assistant_user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "doctor_assistants_doctor_user_id_assistant_user_id_pk" PRIMARY KEY("doctor_user_id","assistant_user_id")
);
--> statement-breakpoint
ALTER TABLE "doctor_assistants" ADD CONSTRAINT "doctor_assistants_doctor_user_id_users_user_id_fk" FOREIGN KEY ("doctor_user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doctor_assistants" ADD CONSTRAINT "doctor_assistants_assistant_user_id_users_user_id_fk" FOREIGN KEY ("assistant_user_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "doctor_assistants_assistant_idx" ON "doctor_assistants" USING btree ("assistant_user_id");