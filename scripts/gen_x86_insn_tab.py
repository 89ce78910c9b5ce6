# Reads an x86 opcode map in the text format of Linux's
# tools/arch/x86/lib/x86-opcode-map.txt (v6.1: the tables perf 6.1's
# decoder is built from) and prints src/cli/x86_insn_tab.h's tables in
# hwprof's own attribute bits (src/cli/x86_insn_len.c). Alternatives of an
# entry add up; (66)/(F3)/(F2) ones go to that prefix's table, and the
# entry then says the last prefix picks.
#   python3 scripts/gen_x86_insn_tab.py x86-opcode-map.txt > tab
# (then the two comment lines of x86_insn_tab.h in front of it)
import re, sys
IMM = {"Ib":1,"Jb":1,"Iw":2,"Id":3,"Iq":4,"Ap":5,"Iz":6,"Jz":6,"Iv":7,"Lx":1}
PFX = {"Operand-Size":1,"REP/REPE":2,"REPNE":3,"XACQUIRE":3,"XRELEASE":2,"LOCK":4,"SEG=CS":5,"SEG=DS":6,
       "SEG=ES":7,"SEG=FS":8,"SEG=GS":9,"SEG=SS":10,"Address-Size":11,"VEX+1byte":13,"VEX+2byte":14,"EVEX":15}
MODRM=1<<3; F64=1<<4; SCND=1<<5; MOFF=1<<6; VAR=1<<7; VEXOK=1<<8; VEXONLY=1<<9; EVEXONLY=1<<10
def PFXF(n): return n<<11
def GRP(n): return (n<<16)|MODRM
def ESC(n): return n<<22
lines=open(sys.argv[1]).read().split("\n")
tables={}   # name -> [dict per variant 0..3]
escape={}; group={}; geid=1; ggid=1
avx={}      # avxcode -> name
cur=None; isgrp=False
def operands(ops):
    imm=0; mod=0
    for o in ops:
        if re.match(r"^[IJAOL][a-z]",o):
            if o in ("Ob","Ov"): f=MOFF
            else: f=IMM[o]
            if imm:
                assert o=="Ib"; imm|=SCND
            else: imm=f
        elif re.match(r"^([CDEGMNPQRSUVW/][a-z]+|NTA|T[012])",o): mod=MODRM
    return imm|mod
order=[]
for ln in lines:
    if ln.startswith("#") or not ln.strip(): continue
    f=ln.split()
    if f[0]=="Table:":
        cur=None; isgrp=False; eid=None; aid=None; continue
    if f[0]=="Referrer:":
        if len(f)>1:
            ref="".join(f[1:]); cur="esc%d"%escape[ref]
        continue
    if f[0]=="AVXcode:":
        if len(f)>1:
            if cur is None: cur="avx%s"%f[1]
            avx[int(f[1])]=cur
        if cur is None: cur="esc0"
        tables[cur]=[{} ,{},{},{}]; order.append(cur); continue
    if f[0]=="GrpTable:":
        cur="grp%d"%group[f[1]]; isgrp=True; tables[cur]=[{},{},{},{}]; order.append(cur); continue
    if f[0]=="EndTable":
        cur=None; continue
    m=re.match(r"^([0-9a-f]+):",f[0])
    if not m: continue
    idx=int(m.group(1),16); t=tables[cur]
    if len(f)>1 and f[1]=="escape":
        ref="".join(f[3:]); escape[ref]=geid; t[0][idx]=ESC(geid); geid+=1; continue
    i=1; variant=False
    while i<len(f):
        opc=f[i]; i+=1; flags=0; ext=""
        if i<len(f) and re.match(r"^[A-Za-z/]",f[i]):
            flags=operands(f[i].split(",")); i+=1
        if i<len(f) and f[i].startswith("("):
            ext=f[i]; i+=1
        if i<len(f) and f[i]=="|": i+=1
        if re.match(r"^Grp[0-9A-Za-z]+",opc):
            if opc not in group: group[opc]=ggid; ggid+=1
            flags|=GRP(group[opc])
        if re.search(r"\([df]64\)",ext): flags|=F64
        if re.match(r"^REX(\.[XRWB]+)*",opc): flags|=PFXF(12)
        if re.match(r"^ESC",opc): flags|=MODRM
        if re.search(r"\(ev\)",ext): flags|=VEXOK|EVEXONLY
        elif re.search(r"\(v\)",ext): flags|=VEXOK|VEXONLY
        elif re.search(r"\(v1\)",ext) or re.match(r"^[vk]",opc): flags|=VEXOK
        if re.search(r"\(Prefix\)",ext): flags|=PFXF(PFX[opc])
        if not flags: continue
        if re.search(r"\((66|!F3)\)",ext): t[1][idx]=t[1].get(idx,0)|flags; variant=True
        if re.search(r"\(F3\)",ext): t[2][idx]=t[2].get(idx,0)|flags; variant=True
        if re.search(r"\((F2|!F3|66&F2)\)",ext): t[3][idx]=t[3].get(idx,0)|flags; variant=True
        if not re.search(r"\((66|F2|F3)\)",ext): t[0][idx]=t[0].get(idx,0)|flags
    if variant: t[0][idx]=t[0].get(idx,0)|VAR
names=[]; out=[]
for name in order:
    for v in range(4):
        d=tables[name][v]
        if not d: continue
        n="%s_%d"%(name,v); names.append((name,v,n))
        size=8 if name.startswith("grp") else 256
        out.append("static const uint32_t %s[%d] = {"%(n,size))
        items=["[0x%02x] = 0x%x"%(k,d[k]) for k in sorted(d)]
        for j in range(0,len(items),5): out.append("\t"+", ".join(items[j:j+5])+",")
        out.append("};")
print("/* generated */")
print("\n".join(out))
def ref(name,v):
    for (a,b,n) in names:
        if a==name and b==v: return n
    return "NULL"
print("static const uint32_t *const esc_tabs[4][4] = {")
for e in range(4): print("\t{ %s },"%", ".join(ref("esc%d"%e,v) for v in range(4)))
print("};")
print("static const uint32_t *const avx_tabs[7][4] = {")
for a in range(7): print("\t{ %s },"%", ".join(ref(avx[a],v) if a in avx else "NULL" for v in range(4)))
print("};")
print("static const uint32_t *const grp_tabs[%d][4] = {"%ggid)
for g in range(ggid): print("\t{ %s },"%", ".join(ref("grp%d"%g,v) for v in range(4)))
print("};")
print("/* %d groups, escapes %s, avx %s */"%(ggid-1,escape,avx), file=sys.stderr)
