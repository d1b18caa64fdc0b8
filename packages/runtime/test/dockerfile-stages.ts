/** One `FROM` of a Dockerfile and the instructions up to the next one. */
export interface DockerfileStage {
  /** The image after FROM (with its tag and digest), without the stage's name. */
  from: string;
  /** The stage's name (`AS build`), or its index as `COPY --from` would name it. */
  name: string;
  /** Each instruction on one line (continuations joined), comments left out. */
  instructions: string[];
}

/** The stages of a Dockerfile as written (no parser directives, ARG before FROM or heredocs in ours). */
export function dockerfileStages(text: string): DockerfileStage[] {
  const instructions = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const stages: DockerfileStage[] = [];
  for (const instruction of instructions) {
    const from = instruction.match(/^FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i);
    if (from) stages.push({ from: from[1], name: from[2] ?? String(stages.length), instructions: [] });
    else if (stages.length === 0) throw new Error(`An instruction before the first FROM: ${instruction}`);
    else stages.at(-1)!.instructions.push(instruction);
  }
  return stages;
}
