// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `uringlint --generate KIND`, for the build: the bash completion and the
 * man page's SYNOPSIS, COMMANDS and GLOBAL OPTIONS sections, written from
 * the command and option tables (as `checks --roff` writes CHECKS from the
 * check table), so that neither can name what the program lacks or lack
 * what it has.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

/* roff text: a backslash doubled, every '-' a minus, a leading dot or quote defused. */
static void roff(FILE *out, const char *s)
{
	bool bol = true;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", out);
		bol = *s == '\n';
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

/* Help text is written for an 80-column terminal: its line breaks are spaces in roff. */
static void roff_help(FILE *out, const char *s)
{
	char buf[512];
	size_t i;

	snprintf(buf, sizeof(buf), "%s", s);
	for (i = 0; buf[i]; i++)
		if (buf[i] == '\n')
			buf[i] = ' ';
	roff(out, buf);
}

static bool shown(const struct cmd_option *o)
{
	return !(o->flags & CMDOPT_HIDDEN);
}

/* --- man page ------------------------------------------------------------ */

static void synopsis_one(FILE *out, const struct command *cmd, const char *parent)
{
	const struct cmd_option *o;

	fputs(".B uringlint\n.RI [ GLOBAL ]\n.B ", out);
	if (parent)
		fprintf(out, "%s ", parent);
	fprintf(out, "%s\n", cmd->name);
	/* "PID... | --all", "-o DIR", "ID": as the usage line has it */
	if (cmd->alt) {
		roff(out, cmd->alt);
		fputc('\n', out);
	} else if (cmd->operands != ARG_NONE) {
		fputs(".IR ", out);
		roff(out, cmd->operand_name);
		fputs(" ...\\&\n", out);
	}
	for (o = cmd->options; o->name; o++) {
		if (!shown(o) || command_alt_has(cmd, o))
			continue;
		fputs(".RB [ ", out);
		roff(out, "--");
		roff(out, o->name);
		if (o->metavar) {
			fputs("\n.IR ", out);
			roff(out, o->metavar);
		}
		fprintf(out, " ]%s\n", o->flags & CMDOPT_REPEAT ? "...\\&" : "");
	}
	fputs(".br\n", out);
}

static void man_synopsis(FILE *out)
{
	size_t i;

	for (i = 0; i < commands_len; i++) {
		synopsis_one(out, &commands[i], NULL);
		for (const struct command *const *s = commands[i].subs; s && *s; s++)
			synopsis_one(out, *s, commands[i].name);
	}
}

static void option_items(FILE *out, const struct cmd_option *o)
{
	for (; o->name; o++) {
		if (!shown(o))
			continue;
		fputs(".TP\n", out);
		/* .BI and .BR alternate bold and italic or roman: name, then its value. */
		if (o->short_name && o->metavar)
			fprintf(out, ".BI \\-%c \" %s\" \"\\fR, \\fP", o->short_name, o->metavar);
		else if (o->short_name)
			fprintf(out, ".BR \\-%c \", \" \"", o->short_name);
		else
			fputs(o->metavar ? ".BI \"" : ".B \"", out);
		roff(out, "--");
		roff(out, o->name);
		if (o->metavar)
			fprintf(out, " \" %s\n", o->metavar);
		else
			fputs("\"\n", out);
		roff_help(out, o->help);
		if (o->live_only)
			fputs("; the live system only", out);
		fputs(".\n", out);
	}
}

static void man_command(FILE *out, const struct command *cmd, const char *parent)
{
	fputs(".TP\n.B ", out);
	if (parent)
		fprintf(out, "%s ", parent);
	fprintf(out, "%s\n", cmd->name);
	fputs(cmd->man, out);
	if (cmd->flags & CMD_LIVE_ONLY)
		fputs("\nIt runs on the live system only, never under\n.BR \\-\\-root .", out);
	fputc('\n', out);
	if (cmd->options[0].name && shown(&cmd->options[0])) {
		fputs(".RS\n", out);
		option_items(out, cmd->options);
		fputs(".RE\n", out);
	}
}

static void man_commands(FILE *out)
{
	size_t i;

	for (i = 0; i < commands_len; i++) {
		man_command(out, &commands[i], NULL);
		for (const struct command *const *s = commands[i].subs; s && *s; s++)
			man_command(out, *s, commands[i].name);
	}
}

/* --- bash completion ------------------------------------------------------ */

/* " --dir --depth ...": each word after a space, as the lists are joined in shell */
static void words_of(FILE *out, const struct cmd_option *o)
{
	for (; o->name; o++) {
		if (!shown(o))
			continue;
		fprintf(out, " --%s", o->name);
		if (o->short_name)
			fprintf(out, " -%c", o->short_name);
	}
}

/* The completion of a value of this kind, as shell lines at indent tabs. */
static void complete_kind(FILE *out, enum arg_kind k, const char *words, const char *tabs)
{
	switch (k) {
	case ARG_NONE:
	case ARG_VALUE:
		break;	/* a number or a list: nothing to offer */
	case ARG_WORDS:
		fprintf(out, "%sCOMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n", tabs, words);
		break;
	case ARG_DIR:
		fprintf(out, "%s_filedir -d\n", tabs);
		break;
	case ARG_FILE:
		fprintf(out, "%s_filedir\n", tabs);
		break;
	case ARG_JSON_FILE:
		fprintf(out, "%s_filedir json\n", tabs);
		break;
	case ARG_PID:
		fprintf(out, "%sCOMPREPLY=($(compgen -W \"$(_uringlint_pids)\" -- \"$cur\"))\n", tabs);
		break;
	case ARG_CHECK:
		fprintf(out, "%sCOMPREPLY=($(compgen -W \"$(_uringlint_ids)\" -- \"$cur\"))\n", tabs);
		break;
	case ARG_CHECKS:
		fprintf(out, "%s_uringlint_id_list\n", tabs);
		break;
	}
}

/* "case $prev in --opt) ...; return ;; esac" for the options that take a value. */
static void value_cases(FILE *out, const struct cmd_option *o, const char *tabs)
{
	char inner[16];
	bool any = false;

	for (; o->name; o++) {
		if (!shown(o) || o->arg == ARG_NONE)
			continue;
		if (!any)
			fprintf(out, "%scase $prev in\n", tabs);
		any = true;
		fprintf(out, "%s--%s", tabs, o->name);
		if (o->short_name)
			fprintf(out, " | -%c", o->short_name);
		fputs(")\n", out);
		snprintf(inner, sizeof(inner), "%s\t", tabs);
		complete_kind(out, o->arg, o->words, inner);
		fprintf(out, "%s\treturn\n%s\t;;\n", tabs, tabs);
	}
	if (any)
		fprintf(out, "%sesac\n", tabs);
}

/* Options when the word starts with '-' or the command takes no operands. */
static void command_arm(FILE *out, const struct command *cmd)
{
	const char *tabs = cmd->operands == ARG_NONE ? "\t\t" : "\t\t\t";

	if (cmd->operands != ARG_NONE)
		fputs("\t\tif [[ $cur == -* ]]; then\n", out);
	fprintf(out, "%sCOMPREPLY=($(compgen -W \"", tabs);
	words_of(out, cmd->options);
	fputs(" $global\" -- \"$cur\"))\n", out);
	if (cmd->operands == ARG_NONE)
		return;
	fputs("\t\telse\n", out);
	complete_kind(out, cmd->operands, NULL, "\t\t\t");
	fputs("\t\tfi\n", out);
}

static void bash_completion(FILE *out)
{
	size_t i;

	fputs("# bash completion for uringlint -*- shell-script -*-\n"
	      "# Generated by `uringlint --generate bash-completion` from the command table.\n\n"
	      "_uringlint_ids()\n{\n"
	      "\turinglint checks --format json 2>/dev/null | "
	      "sed -n 's/.*\"id\": \"\\([^\"]*\\)\".*/\\1/p'\n}\n\n"
	      "_uringlint_pids()\n{\n\t(cd /proc && echo [0-9]*)\n}\n\n"
	      "# ID,ID,...: complete the last one.\n"
	      "_uringlint_id_list()\n{\n"
	      "\tlocal prefix=${cur%,*}\n"
	      "\t[[ $prefix == \"$cur\" ]] && prefix= || prefix+=,\n"
	      "\tCOMPREPLY=($(compgen -P \"$prefix\" -W \"$(_uringlint_ids)\" -- \"${cur##*,}\"))\n"
	      "}\n\n"
	      "_uringlint()\n{\n"
	      "\tlocal cur prev words cword cmd cmd_i i\n"
	      "\t_init_completion || return\n\n"
	      "\tlocal global=\"",
	      out);
	words_of(out, global_options);	/* its leading space is harmless in compgen -W */
	fputs("\"\n\tlocal commands=\"", out);
	for (i = 0; i < commands_len; i++)
		fprintf(out, "%s%s", i ? " " : "", commands[i].name);
	fputs("\"\n\n\tfor ((i = 1; i < cword; i++)); do\n\t\tcase ${words[i]} in\n\t\t", out);
	for (i = 0; i < commands_len; i++)
		fprintf(out, "%s%s", i ? " | " : "", commands[i].name);
	fputs(")\n\t\t\tcmd=${words[i]}\n\t\t\tcmd_i=$i\n\t\t\tbreak\n\t\t\t;;\n"
	      "\t\tesac\n\tdone\n\n",
	      out);
	value_cases(out, global_options, "\t");
	fputs("\n\tcase $cmd in\n\t\"\")\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$commands $global\" -- \"$cur\"))\n\t\t;;\n",
	      out);
	for (i = 0; i < commands_len; i++) {
		const struct command *c = &commands[i];

		fprintf(out, "\t%s)\n", c->name);
		value_cases(out, c->options, "\t\t");
		for (const struct command *const *s = c->subs; s && *s; s++) {
			fprintf(out, "\t\tif [[ ${words[cmd_i + 1]:-} == %s ]]; then\n", (*s)->name);
			fputs("\t\t\tif [[ $cur == -* ]]; then\n\t\t\t\tCOMPREPLY=($(compgen -W \"", out);
			words_of(out, (*s)->options);
			fputs(" $global\" -- \"$cur\"))\n\t\t\telse\n", out);
			complete_kind(out, (*s)->operands, NULL, "\t\t\t\t");
			fputs("\t\t\tfi\n\t\t\treturn\n\t\tfi\n", out);
		}
		if (c->subs) {
			fputs("\t\tif ((cword == cmd_i + 1)) && [[ $cur != -* ]]; then\n"
			      "\t\t\tCOMPREPLY=($(compgen -W \"", out);
			for (const struct command *const *s = c->subs; *s; s++)
				fprintf(out, "%s%s", s == c->subs ? "" : " ", (*s)->name);
			fputs("\" -- \"$cur\"))\n\t\t\treturn\n\t\tfi\n", out);
		}
		command_arm(out, c);
		fputs("\t\t;;\n", out);
	}
	fputs("\tesac\n} &&\n\tcomplete -F _uringlint uringlint\n", out);
}

int cmd_generate(const char *kind)
{
	if (!strcmp(kind, "bash-completion"))
		bash_completion(stdout);
	else if (!strcmp(kind, "man-synopsis"))
		man_synopsis(stdout);
	else if (!strcmp(kind, "man-commands"))
		man_commands(stdout);
	else if (!strcmp(kind, "man-global-options"))
		option_items(stdout, global_options);
	else
		return usage_error("--generate takes bash-completion, man-synopsis, man-commands "
				   "or man-global-options, not '%s'", kind);
	if (fflush(stdout) || ferror(stdout)) {
		error_msg("cannot write standard output: %s", strerror(errno));
		return EXIT_CANNOT;
	}
	return 0;
}
