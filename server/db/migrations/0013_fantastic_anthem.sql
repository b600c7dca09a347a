CREATE TABLE "blacklist_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blacklist_emails" (
	"email" text COLLATE "C" PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_blacklist" (
	"partner_id" text NOT NULL,
	"dataset_name" text NOT NULL,
	"email" text COLLATE "C" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_blacklist_pkey" PRIMARY KEY("partner_id","dataset_name","email")
);
--> statement-breakpoint
CREATE TABLE "dns_check_results" (
	"task_id" text NOT NULL,
	"domain" text NOT NULL,
	"address_count" integer NOT NULL,
	"check" text NOT NULL,
	"error" text,
	CONSTRAINT "dns_check_results_pkey" PRIMARY KEY("task_id","domain")
);
--> statement-breakpoint
ALTER TABLE "dns_check_results" ADD CONSTRAINT "dns_check_results_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;