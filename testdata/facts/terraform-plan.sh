# terraform plan creating 240 instances (terraform 1.9's layout,
# transcribed): a long success whose summary is at its end.
cat <<'HEAD'
data.aws_ami.ubuntu: Reading...
data.aws_ami.ubuntu: Read complete after 1s [id=ami-0a1b2c3d4e5f60718]

Terraform used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  + create

Terraform will perform the following actions:

HEAD
awk 'BEGIN { for (i = 0; i < 240; i++) { printf "  # aws_instance.web[%d] will be created\n  + resource \"aws_instance\" \"web\" {\n      + ami                          = \"ami-0a1b2c3d4e5f60718\"\n      + arn                          = (known after apply)\n      + id                           = (known after apply)\n      + instance_type                = \"t3.micro\"\n      + private_ip                   = (known after apply)\n      + subnet_id                    = \"subnet-0%07x\"\n      + tags                         = {\n          + \"Name\" = \"web-%d\"\n        }\n    }\n\n", i, i * 7919, i } }'
cat <<'TAIL'
Plan: 240 to add, 0 to change, 0 to destroy.

─────────────────────────────────────────────────────────────────────────────

Note: You didn't use the -out option to save this plan, so Terraform can't
guarantee to take exactly these actions if you run "terraform apply" now.
TAIL
