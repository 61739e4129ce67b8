/** A Dockerfile as its instructions (continuation lines joined, comments dropped), grouped by stage. */
export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): { globalArgs: Instruction[]; stages: Stage[] } {
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i];
    if (/^\s*(#|$)/.test(line)) continue;
    while (line.trimEnd().endsWith('\\') && i + 1 < lines.length) {
      line = `${line.trimEnd().slice(0, -1)} ${lines[++i].trim()}`;
    }
    const match = /^\s*(\w+)\s+(.*)$/.exec(line);
    if (!match) throw new Error(`unparseable Dockerfile line ${start + 1}: ${line}`);
    instructions.push({ keyword: match[1].toUpperCase(), args: match[2].trim(), line: start + 1 });
  }
  const globalArgs: Instruction[] = [];
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [from, as, name] = instruction.args.split(/\s+/);
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG')
        throw new Error(`${instruction.keyword} before the first FROM (line ${instruction.line})`);
      globalArgs.push(instruction);
    } else stages[stages.length - 1].instructions.push(instruction);
  }
  return { globalArgs, stages };
}

/** `COPY [--flags] <src>... <dest>` → flags and sources (shell form only). */
export function copySources(instruction: Instruction): { flags: string[]; sources: string[]; dest: string } {
  const words = instruction.args.split(/\s+/);
  const flags = words.filter((w) => w.startsWith('--'));
  const rest = words.filter((w) => !w.startsWith('--'));
  return { flags, sources: rest.slice(0, -1), dest: rest[rest.length - 1] };
}

/** The stages an image built with `--target <target>` consists of: from its first `FROM <image>` to `target`. */
export function imageStages(stages: Stage[], target: string): Stage[] {
  const byName = new Map(stages.filter((s) => s.name).map((s) => [s.name!, s]));
  const chain: Stage[] = [];
  for (let stage = byName.get(target); stage; stage = byName.get(stage.from)) chain.unshift(stage);
  if (chain.length === 0) throw new Error(`no stage named ${target}`);
  return chain;
}
