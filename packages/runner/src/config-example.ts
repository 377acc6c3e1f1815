/** The commented models.yaml that `crucibleforge config --init` writes: LM Studio enabled, the rest commented. */
export function exampleConfig(): string {
  return `# CrucibleForge models.yaml — which endpoints and models to benchmark.
# API keys never go in this file: name the environment variable that holds them (api_key_env).
# Prices are USD per million tokens; a priced run shows its estimated cost and asks before starting.
version: 1

providers:
  lmstudio:
    kind: lmstudio              # lmstudio | ollama | llamacpp | vllm | openrouter | deepseek | openai | generic | llamacpp-inprocess
    base_url: http://localhost:1234/v1
    # concurrency: 1            # local servers run one request at a time unless they have more slots
    # timeouts: { first_token_s: 300, gap_s: 120, total_s: 1800, connect_s: 30 }   # a model's own timeouts: override these

  # ollama:
  #   kind: ollama
  #   base_url: http://localhost:11434/v1

  # llamacpp:
  #   kind: llamacpp
  #   base_url: http://localhost:8080/v1
  #   concurrency: 2            # = llama-server --parallel

  # engine:                     # no server: the GGUF runs in this process on llama.cpp (CPU)
  #   kind: llamacpp-inprocess
  #   gguf: models/qwen3-0.6b-q8_0.gguf   # absolute, or relative to this file
  #   context: 4096             # default: the model's trained context, at most 4096
  #   threads: 8                # default: llama.cpp's choice
  #   batch: 512                # prompt tokens per batch

  # vllm:
  #   kind: vllm
  #   base_url: http://localhost:8000/v1

  # openrouter:
  #   kind: openrouter
  #   base_url: https://openrouter.ai/api/v1
  #   api_key_env: OPENROUTER_API_KEY
  #   concurrency: 8
  #   prices: { input: 0.5, cached_input: 0.05, output: 1.5 }

  # deepseek:
  #   kind: deepseek
  #   base_url: https://api.deepseek.com/v1
  #   api_key_env: DEEPSEEK_API_KEY
  #   concurrency: 8
  #   prices: { input: 0.28, cached_input: 0.028, output: 0.42 }

models:
  # The key is the label reports show and --models selects.
  qwen3-8b:
    provider: lmstudio
    id: qwen/qwen3-8b           # the id the endpoint serves
    context_length: 32768
    reasoning: auto             # auto | on | off (off uses the provider's own switch)
    # max_tokens: 16384         # cap on any one reply; reasoning models get the case budget × reasoning_factor
    # reasoning_factor: 4
    enabled: true
    # lease:                    # rent the GPU from a StudioForge server (omit server: for a local lock)
    #   server: http://rig.local:8800
    #   api_key_env: STUDIOFORGE_API_KEY
    #   api_key_header: bearer  # bearer (Authorization) | x-api-key
    #   pin_env: STUDIOFORGE_PIN  # MCP pairing PIN, for a lease server on another machine
    #   devices: [0]
    #   idle_ttl_s: 300         # 5–86400; the server frees the GPU this long after a killed run's last heartbeat

  # deepseek-chat:
  #   provider: deepseek
  #   id: deepseek-chat
  #   context_length: 131072
  #   reasoning: off
  #   enabled: false

# The judge compares prose answers with the reference answer. It should not be a model under test.
# judge:
#   model: qwen3-8b
#   samples: 1
`;
}
