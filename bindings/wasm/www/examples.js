// Scripts bundled with the playground: [title, settings, script].
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
];
