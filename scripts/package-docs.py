#!/usr/bin/env python3
"""The man page photogrid.1 and the bash, zsh and fish completions, written from the help the
three commands print (photogrid, serve, export): scripts/package runs it with the folder of
their --help texts, the version and the package's root. ArgumentParser's own generators see only
the browser's options, since serve and export are dispatched by hand."""
import datetime
import re
import sys

help_dir, version, stage = sys.argv[1:4]
COMMANDS = [("photogrid", "photogrid.txt"), ("serve", "serve.txt"), ("export", "export.txt")]


def parse(text):
    """Sections of ArgumentParser's help: overview (with the paragraphs after it), usage,
    arguments and options, each option as (names, value, description)."""
    lines = text.rstrip("\n").split("\n")
    result = {"overview": [], "usage": "", "arguments": [], "options": []}
    section, entry = "overview", None
    for line in lines:
        header = re.match(r"^([A-Z][A-Z ]+):\s?(.*)$", line)
        if header and not line.startswith(" "):
            name = header.group(1).lower()
            section = {"overview": "overview", "usage": "usage", "arguments": "arguments", "options": "options"}.get(name, section)
            if section == "overview":
                result["overview"].append(header.group(2))
            elif section == "usage":
                result["usage"] = header.group(2)
            entry = None
            continue
        if section == "overview":
            result["overview"].append(line)
        elif section in ("arguments", "options"):
            start = re.match(r"^  (\S.*?)(?:\s{2,}(.*))?$", line)
            if start and not line.startswith("    "):
                entry = [start.group(1), start.group(2) or ""]
                result[section].append(entry)
            elif entry is not None and line.strip():
                entry[1] = (entry[1] + " " + line.strip()).strip()
    return result


def option_names(spec):
    """'-h, --help' -> (['-h', '--help'], None); '--mode <mode>' -> (['--mode'], 'mode')."""
    value = re.search(r"<([^>]+)>", spec)
    names = [part.split(" ")[0] for part in spec.split(", ")]
    return names, value.group(1) if value else None


def choices(description):
    found = re.search(r"\(values: ([^)]*)\)", description)
    return [v.strip() for v in found.group(1).split(",")] if found else []


def first_sentence(text):
    text = re.sub(r"\s*\((default|values):[^)]*\)", "", text)
    sentence = re.split(r"(?<=[.;])\s", text, maxsplit=1)[0].rstrip(".;:")
    return sentence if len(sentence) <= 80 else sentence[:77].rsplit(" ", 1)[0] + "..."


def roff(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(("\\&" + l if l.startswith((".", "'")) else l) for l in text.split("\n"))


helps = {name: parse(open(f"{help_dir}/{file}").read()) for name, file in COMMANDS}

# The man page.
date = datetime.date.today().isoformat()
page = [f'.TH PHOTOGRID 1 "{date}" "photogrid {version}" "User Commands"', ".SH NAME",
        "photogrid \\- browse, cull and serve folders of photos in the terminal", ".SH SYNOPSIS"]
for name, _ in COMMANDS:
    usage = helps[name]["usage"]
    page += [".B " + roff(usage.split(" ")[0] + ("" if name == "photogrid" else " " + name)), roff(" ".join(usage.split(" ")[1 if name == "photogrid" else 2:])), ".br"]
for name, _ in COMMANDS:
    h = helps[name]
    page.append(".SH DESCRIPTION" if name == "photogrid" else f'.SH "PHOTOGRID {name.upper()}"')
    paragraphs = "\n".join(h["overview"]).strip().split("\n\n")
    for paragraph in paragraphs:
        page += [".PP", roff(" ".join(l.strip() for l in paragraph.split("\n")))]
    if h["arguments"]:
        page.append(".SS Arguments" if name != "photogrid" else ".SH ARGUMENTS")
        for spec, text in h["arguments"]:
            page += [".TP", ".I " + roff(spec), roff(text)]
    page.append(".SS Options" if name != "photogrid" else ".SH OPTIONS")
    for spec, text in h["options"]:
        page += [".TP", ".B " + roff(spec), roff(text)]
page += [".SH FILES", ".TP", ".I $XDG_CONFIG_HOME/photogrid/config",
         "Defaults and key bindings, one name = value a line (the README's \\(lqConfig file\\(rq).",
         ".TP", ".I $XDG_CACHE_HOME/photogrid", "The thumbnails, the catalog and the folders used before; nothing else is kept.",
         ".SH EXIT STATUS", "0 done; 1 something failed while running; 2 the command line cannot be run as given.",
         ".SH SEE ALSO", "timg(1), chafa(1), nsxiv(1), exiftool(1)"]
open(f"{stage}/usr/share/man/man1/photogrid.1", "w").write("\n".join(page) + "\n")

# Options of each command, for the completions.
def options(name):
    out = []
    for spec, text in helps[name]["options"]:
        names, value = option_names(spec)
        out.append((names, value, first_sentence(text), choices(text)))
    return out

FILE_VALUES = {"file", "ca-cert", "tls-cert", "tls-key", "pem"}

def takes_files(value):
    return value is not None and any(word in value for word in FILE_VALUES)

# bash
bash = ["# bash completion for photogrid (made from its --help by scripts/package)", "_photogrid() {",
        '    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command=photogrid',
        '    case "${COMP_WORDS[1]}" in serve|export) command=${COMP_WORDS[1]};; esac',
        '    case "$command $prev" in']
for name, _ in COMMANDS:
    for names, value, _, values in options(name):
        if value is None:
            continue
        pattern = "|".join(f'"{name} {n}"' for n in names)
        if values:
            bash.append(f'        {pattern}) COMPREPLY=($(compgen -W "{" ".join(values)}" -- "$cur")); return;;')
        elif takes_files(value):
            bash.append(f'        {pattern}) COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null; return;;')
        else:
            bash.append(f'        {pattern}) return;;')
bash.append("    esac")
bash.append('    if [[ $cur == -* ]]; then')
bash.append('        case $command in')
for name, _ in COMMANDS:
    flags = " ".join(n for names, _, _, _ in options(name) for n in names)
    bash.append(f'            {name}) COMPREPLY=($(compgen -W "{flags}" -- "$cur"));;')
bash += ["        esac", "        return", "    fi",
         '    [ "$COMP_CWORD" -eq 1 ] && COMPREPLY=($(compgen -W "serve export" -- "$cur"))',
         '    COMPREPLY+=($(compgen -f -- "$cur"))', "    compopt -o filenames 2>/dev/null", "}",
         "complete -F _photogrid photogrid"]
open(f"{stage}/usr/share/bash-completion/completions/photogrid", "w").write("\n".join(bash) + "\n")

# zsh
def zsh_escape(text):
    return text.replace("\\", "\\\\").replace("'", "'\\''").replace("[", "\\[").replace("]", "\\]").replace(":", "\\:")

zsh = ["#compdef photogrid", "# zsh completion for photogrid (made from its --help by scripts/package)", "_photogrid() {",
       "    local -a specs"]
for name, _ in COMMANDS:
    zsh.append(f"    local -a {name}_specs=(")
    for names, value, text, values in options(name):
        target = "(" + " ".join(names) + ")" if len(names) > 1 else ""
        for n in names:
            spec = f"{target}{n}[{zsh_escape(text)}]"
            if value:
                action = "(" + " ".join(values) + ")" if values else ("_files" if takes_files(value) else " ")
                spec += f":{zsh_escape(value)}:{action}"
            zsh.append(f"        '{spec}'")
    zsh.append("    )")
zsh += ["    case $words[2] in",
        "        serve) shift words; (( CURRENT-- )); _arguments -s $serve_specs '1:folder:_files -/' ;;",
        "        export) shift words; (( CURRENT-- )); _arguments -s $export_specs '1:folder:_files -/' '2:out:_files -/' ;;",
        "        *) _arguments -s $photogrid_specs '1: :->first' '*:path:_files' && return",
        "           [[ $state == first ]] && _alternative 'commands:command:(serve export)' 'paths:path:_files' ;;",
        "    esac", "}", '_photogrid "$@"']
open(f"{stage}/usr/share/zsh/vendor-completions/_photogrid", "w").write("\n".join(zsh) + "\n")

# fish
def fish_escape(text):
    return text.replace("\\", "\\\\").replace("'", "\\'")

fish = ["# fish completion for photogrid (made from its --help by scripts/package)",
        "complete -c photogrid -n '__fish_use_subcommand' -a serve -d 'Serve a folder to photogrid --url'",
        "complete -c photogrid -n '__fish_use_subcommand' -a export -d 'Write a folder as a static gallery'"]
for name, _ in COMMANDS:
    condition = "not __fish_seen_subcommand_from serve export" if name == "photogrid" else f"__fish_seen_subcommand_from {name}"
    for names, value, text, values in options(name):
        parts = [f"complete -c photogrid -n '{condition}'"]
        for n in names:
            parts.append(f"-l {n[2:]}" if n.startswith("--") else f"-s {n[1:]}")
        if value:
            parts.append("-r" if takes_files(value) else "-x")
            if values:
                parts.append("-a '" + " ".join(values) + "'")
        parts.append(f"-d '{fish_escape(text)}'")
        fish.append(" ".join(parts))
open(f"{stage}/usr/share/fish/vendor_completions.d/photogrid.fish", "w").write("\n".join(fish) + "\n")
