// Scripts bundled with the playground: [title, settings, script], and for an example that reads
// its deals instead of dealing them, `input`: the records it fills the Input records box with.
export const EXAMPLES = [
  {
    title: 'Strong 2NT opener, responder with a major (DealerV2)',
    generator: 'drand48',
    dialect: 'v2',
    seed: 11,
    script: `title "East 2NT, West Stayman or Jacoby"
generate 1000000
produce 10
east_notrump =
    shape(east, any 4333 + any 4432 + any 5332 - 5xxx - x5xx)
    && hcp(east) >= 23 && hcp(east) < 25
west_stayman = hcp(west) > 3 && (hearts(west) == 4 || spades(west) == 4)
west_jacoby = hearts(west) > 4 || spades(west) > 4
condition
    east_notrump && (west_stayman || west_jacoby)
action
    printoneline
`,
  },
  {
    title: '1NT opener with a singleton (classic, BBO style)',
    generator: 'glibc',
    dialect: 'classic',
    seed: 1,
    script: `# South opens 1NT (15-17) holding a singleton
produce 4
condition
    hcp(south) >= 15 && hcp(south) <= 17
    && shape(south, any 4441 + any 5431 - 1xxx - x1xx)
action
    printall
`,
  },
  {
    title: 'Frequency: North\'s points and spades, 1-D and 2-D (statistics)',
    generator: 'chacha',
    dialect: 'v2',
    seed: 7,
    script: `generate 20000
produce 20000
condition hcp(north) >= 12
action
    frequency "North HCP" (hcp(north), 12, 25),
    frequency "North spades" (spades(north), 0, 8),
    frequency "North HCP (down) by spades (across)" (hcp(north), 12, 20, spades(north), 2, 6),
    average "HCP" hcp(north)
`,
  },
  {
    title: 'Weak two in spades, partner with support',
    generator: 'chacha',
    dialect: 'v2',
    seed: 42,
    script: `produce 5
weak2 = spades(north) == 6 && hcp(north) >= 5 && hcp(north) <= 10
        && top3(north, spades) >= 2 && hearts(north) < 4
support = spades(south) >= 3 && hcp(south) >= 14
condition weak2 && support
action printall, average "South HCP" hcp(south)
`,
  },
  {
    title: 'Double dummy: a 15-17 notrump making 9 tricks, tricks and par (DDS, loaded when needed)',
    generator: 'chacha',
    dialect: 'v2',
    seed: 7,
    script: `produce 4
nt = hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)
condition nt && hcp(south) >= 10 && tricks(north, notrumps) >= 9
action printoneline,
    average "North's NT tricks" tricks(north, notrumps),
    average "par for NS, none vul" par(NS),
    frequency "South's spade tricks" (tricks(south, spades), 4, 13)
`,
  },
  {
    title: 'Hand types: a 1NT ladder levelled (Dealer3 HandType_ convention)',
    generator: 'chacha',
    dialect: 'v2',
    seed: 3,
    script: `# A 1NT practice ladder: South opens a balanced hand in one of five strength bands.
# Nature deals 12-14 in 58 % of these hands and 22-24 in 1.3 %; levelled, each band is
# {{level-mix:12_14}}, {{level-mix:15_17}}, {{level-mix:18_19}}, {{level-mix:20_21}}, {{level-mix:22_24}}.
#
#   dealer --write-leveled nt_ladder.leveled.dlr nt_ladder.dlr   (a file BBO's dealer runs)
#   dealer --level -p 20 nt_ladder.dlr                          (exactly 4 of each band)
dealer south

HandType_12_14 = hcp(south) >= 12 and hcp(south) <= 14
HandType_15_17 = hcp(south) >= 15 and hcp(south) <= 17
HandType_18_19 = hcp(south) >= 18 and hcp(south) <= 19
HandType_20_21 = hcp(south) >= 20 and hcp(south) <= 21
HandType_22_24 = hcp(south) >= 22 and hcp(south) <= 24

### BEGIN GENERATED LEVELING ###
noLeveling = 1
levelTheDeal = noLeveling
### END GENERATED LEVELING ###

condition shape(south, any 4333 + any 4432 + any 5332)
      and hcp(south) >= 12 and hcp(south) <= 24
      and levelTheDeal

produce 20
action printpbn,
  average "12_14" 100 * HandType_12_14,
  average "15_17" 100 * HandType_15_17,
  average "18_19" 100 * HandType_18_19,
  average "20_21" 100 * HandType_20_21,
  average "22_24" 100 * HandType_22_24
`,
  },
  {
    title: 'Opening lead: West against 1NT-3NT, every card scored double dummy (leads)',
    generator: 'chacha',
    dialect: 'v2',
    seed: 2,
    script: `# West holds SKJ74 HQ3 D9862 CJ75 and hears 1NT (15-17) - 3NT.
# leads(west, notrump, 9): every card West may lead, scored on each deal (one search for all),
# with the defence's mean tricks, how often 3NT is beaten, and how sure each number is.
predeal west SKJ74, HQ3, D9862, CJ75
condition hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)
  && hcp(south) >= 10 && hcp(south) <= 15 && spades(south) < 4 && hearts(south) < 4
produce 12
action leads(west, notrump, 9), average "South's points" hcp(south)
`,
  },
  {
    title: 'Reading deals: PBN boards and their double-dummy tables through a script (Input records)',
    generator: 'chacha',
    dialect: 'v2',
    seed: 1,
    script: `# The deals come from the Input records box (PBN boards, as
# dealer --pbn-dd writes them) instead of being dealt. Each board goes
# through the condition and the actions and keeps its number, dealer
# and vulnerability; its OptimumResultTable answers tricks() and par
# without solving. Paste your own boards there, or drop a file here.
condition hcp(north) + hcp(south) >= 21
action
    printall,
    average "North makes 3NT" tricks(north, notrump) >= 9,
    average "NS par score" par(NS)
`,
    input: String.raw`[Event "Club night"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:KQJ963.J.KT.J872 52.T965.Q73.AQT4 T74.AKQ3.82.9653 A8.8742.AJ9654.K"]
[OptimumResultTable "Declarer;Denomination\2R;Result\2R"]
N NT  4
N  S  8
N  H  5
N  D  4
N  C  7
E NT  5
E  S  4
E  H  7
E  D  9
E  C  6
S NT  4
S  S  8
S  H  5
S  D  4
S  C  7
W NT  5
W  S  4
W  H  7
W  D  9
W  C  6
[OptimumScore "NS -100"]
[ParContract "NS 3SX"]

[Event "Club night"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "N:AJT54.54.T73.KJ4 987.KT3.Q952.T83 KQ2.62.J84.A7652 63.AQJ987.AK6.Q9"]
[OptimumResultTable "Declarer;Denomination\2R;Result\2R"]
N NT  3
N  S  8
N  H  3
N  D  3
N  C  7
E NT  3
E  S  3
E  H  9
E  D  9
E  C  3
S NT  3
S  S  8
S  H  3
S  D  3
S  C  7
W NT  3
W  S  3
W  H  9
W  D  9
W  C  3
[OptimumScore "NS -140"]
[ParContract "EW 3H"]

[Event "Club night"]
[Board "3"]
[Dealer "S"]
[Vulnerable "EW"]
[Deal "N:K97.AQ8.KQ87.964 AJT62.KT4.J32.75 4.J73.AT964.KT82 Q853.9652.5.AQJ3"]
[OptimumResultTable "Declarer;Denomination\2R;Result\2R"]
N NT  5
N  S  2
N  H  4
N  D  8
N  C  5
E NT  7
E  S 11
E  H  8
E  D  5
E  C  7
S NT  5
S  S  2
S  H  4
S  D  8
S  C  6
W NT  7
W  S 11
W  H  8
W  D  5
W  C  7
[OptimumScore "NS -650"]
[ParContract "EW 5S"]

[Event "Club night"]
[Board "4"]
[Dealer "W"]
[Vulnerable "All"]
[Deal "N:A6.AT8.J963.A732 T8.QJ96.Q754.QJ4 Q97.32.AT82.K985 KJ5432.K754.K.T6"]
[OptimumResultTable "Declarer;Denomination\2R;Result\2R"]
N NT  8
N  S  6
N  H  5
N  D  8
N  C  9
E NT  5
E  S  7
E  H  8
E  D  5
E  C  4
S NT  8
S  S  6
S  H  5
S  D  8
S  C  9
W NT  5
W  S  7
W  H  8
W  D  5
W  C  4
[OptimumScore "NS 120"]
[ParContract "NS 2NT"]

`,
  },
];
