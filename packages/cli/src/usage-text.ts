import { nativePackageTypes } from '@release/contract';

/** The help texts, in Chinese (the default) and English (`--lang en`, RELEASE_LANG=en). */
export interface UsageTexts {
  /** `release-cli --help`. */
  program: string;
  /** `release-cli <command> --help`, and the line shown under a usage error of that command. */
  commands: { upload: string; latest: string; login: string };
  /** The word (and separator) before a command's usage line. */
  usage: string;
}

/** The platforms `latest` takes, from the table of package kinds: ios|android|web|mac|harmony. */
const platformChoice = nativePackageTypes.join('|');
const platformsZh = `${nativePackageTypes.slice(0, -1).join('、')} 或 ${nativePackageTypes.at(-1)}`;
const platformsEn = `${nativePackageTypes.slice(0, -1).join(', ')} or ${nativePackageTypes.at(-1)}`;

const uploadLine =
  'release-cli upload <file> [<module>...] --app <path> [--note <text>] [--attach <file>]... [--chat-env DevTest|PreFavTest] [--skip-existing] [--allow-other-bundle-id] [--commit <sha>]... [--branch <name>] [--json] [--server <url>]';
/** The commands at a glance, the same in both languages. */
const synopsis = `  release-cli upload <file> [<module>...] --app <path> [--note <text>] [--attach <file>]...
                     [--chat-env DevTest|PreFavTest] [--skip-existing] [--allow-other-bundle-id]
                     [--commit <sha>]... [--branch <name>] [--json]
  release-cli latest --app <path> --platform ${platformChoice} [--json]
  release-cli login --token <token> [--server <url>]
  release-cli login --lark [--no-browser] [--server <url>]
  release-cli <command> --help
`;
const latestLine = `release-cli latest --app <path> --platform ${platformChoice} [--json] [--server <url>]`;

export const zhUsage: UsageTexts = {
  usage: '用法：',
  program: `release-cli — 从终端和 CI 向发布系统发布安装包

用法：
${synopsis}
选项：
  <module>...         HarmonyOS：与 <file> 同一版本的其他模块（.hap / .hsp），一起发布为一个版本
  --app <path>        应用的下载路径（/package/<path> 中的 path）
  --note <text>       版本的更新说明
  --attach <file>     随安装包一起发布的附件；可重复
  --chat-env <env>    要通知的机器人环境：DevTest 或 PreFavTest
  --skip-existing     读取安装包的版本号和构建号；应用已有该版本时不发布
  --allow-other-bundle-id  包名（Bundle ID）与应用的不一致时仍然发布
  --commit <sha>      构建所用的提交（git 提交号或 svn 版本号）；每个仓库一个，可重复
  --branch <name>     构建所用的分支（没有 --commit 时取该分支当时的最新提交）
  --platform <p>      ${platformsZh}
  --server <url>      发布系统的地址（默认：RELEASE_SERVER，其次是登录时保存的配置）
  --json              结束时在 stdout 输出一个 JSON 对象（进度仍在 stderr）
  --lang zh|en        提示语言：zh（默认）或 en；也可设置 RELEASE_LANG

环境变量：
  RELEASE_SERVER      发布系统的地址，例如 https://release.example.com
  RELEASE_TOKEN       API 令牌（rst_…），用 POST /api/api_token 创建（见 docs/ci-pipelines.md）
  RELEASE_LANG        提示语言：zh 或 en
  RELEASE_RETRY_DELAY_MS  分片被拒后重试前的等待，毫秒 × 第几次重试（默认 500）
  login 命令把服务器地址和令牌保存在 ~/.config/release-cli/config.json（权限 0600）；
  环境变量优先于该文件。

退出码：
  0 完成（或 --skip-existing 时跳过）      2 用法错误
  3 没有令牌或令牌被拒绝                  4 应用或版本不存在，或没有权限
  5 服务器拒绝了安装包                    6 网络或服务器错误（可稍后重试）
  1 命令行工具自身的意外错误（缺陷；会打印调用栈）
`,
  commands: {
    upload: uploadLine,
    latest: latestLine,
    login:
      'release-cli login --token <token> [--server <url>] [--json]\n  先向服务器验证令牌，再把服务器地址和令牌保存到 ~/.config/release-cli/config.json（0600）。\nrelease-cli login --lark [--no-browser] [--server <url>] [--json]\n  在浏览器中用飞书登录；会话（7 天）同样保存。',
  },
};

export const enUsage: UsageTexts = {
  usage: 'Usage: ',
  program: `release-cli — publish packages to the release system (发布系统) from terminals and CI

Usage:
${synopsis}
Options:
  <module>...         HarmonyOS: the other modules (.hap / .hsp) of <file>'s version, published as one version
  --app <path>        the app's download path (the "path" of /package/<path>)
  --note <text>       the version's description (更新说明)
  --attach <file>     an attachment to publish with the package; repeatable
  --chat-env <env>    the robot environment to notify: DevTest or PreFavTest
  --skip-existing     read the package's version and build; if the app already has them, publish nothing
  --allow-other-bundle-id  publish even when the bundle id / package name is not the app's
  --commit <sha>      the commit the build came from (git id or svn revision); one per repository, repeatable
  --branch <name>     the branch it was built from (without --commit: that branch's newest commit then)
  --platform <p>      ${platformsEn}
  --server <url>      the release system's URL (default: RELEASE_SERVER, then the login config)
  --json              print one JSON object on stdout when done (progress stays on stderr)
  --lang zh|en        the language of messages: zh (default) or en; or set RELEASE_LANG

Environment:
  RELEASE_SERVER      the release system's URL, e.g. https://release.example.com
  RELEASE_TOKEN       an API token (rst_…), created with POST /api/api_token (docs/ci-pipelines.md)
  RELEASE_LANG        the language of messages: zh or en
  RELEASE_RETRY_DELAY_MS  pause before a refused part is sent again, in ms × the attempt (default 500)
  The login command stores both in ~/.config/release-cli/config.json (mode 0600); the
  environment wins over that file.

Exit codes:
  0 done (or skipped with --skip-existing)   2 wrong usage
  3 no token or token refused                4 app or version not found, or no permit
  5 package refused by the server            6 network or server error (worth a retry)
  1 unexpected error of the CLI itself (a bug; the stack is printed)
`,
  commands: {
    upload: uploadLine,
    latest: latestLine,
    login:
      'release-cli login --token <token> [--server <url>] [--json]\n  Checks the token against the server, then stores server and token in ~/.config/release-cli/config.json (0600).\nrelease-cli login --lark [--no-browser] [--server <url>] [--json]\n  Signs in with Lark (飞书) in a browser; the session (7 days) is stored the same way.',
  },
};
